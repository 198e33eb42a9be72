//! Every sentence `pnpkit deck` says, in English and Spanish, with plurals
//! right in both. Messages follow the list's locale (the language its card
//! names and header keys are written in), so a player reads them in their own.

/// The language of messages: Spanish for `es`, English otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Es,
}

impl Lang {
    pub fn of(locale: &str) -> Lang {
        if locale.starts_with("es") { Lang::Es } else { Lang::En }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    fn es(self) -> bool {
        self == Lang::Es
    }

    /// `1 copy`, `2 copies` / `1 copia`, `2 copias`.
    pub fn copies(self, n: i64) -> String {
        match (self, n == 1) {
            (Lang::En, true) => "1 copy".into(),
            (Lang::En, false) => format!("{n} copies"),
            (Lang::Es, true) => "1 copia".into(),
            (Lang::Es, false) => format!("{n} copias"),
        }
    }

    pub fn cards(self, n: i64) -> String {
        match (self, n == 1) {
            (Lang::En, true) => "1 card".into(),
            (Lang::En, false) => format!("{n} cards"),
            (Lang::Es, true) => "1 carta".into(),
            (Lang::Es, false) => format!("{n} cartas"),
        }
    }

    pub fn problems(self, n: usize) -> String {
        match (self, n == 1) {
            (Lang::En, true) => "1 problem".into(),
            (Lang::En, false) => format!("{n} problems"),
            (Lang::Es, true) => "1 problema".into(),
            (Lang::Es, false) => format!("{n} problemas"),
        }
    }

    pub fn lines(self, n: usize) -> String {
        match (self, n == 1) {
            (Lang::En, true) => "1 line".into(),
            (Lang::En, false) => format!("{n} lines"),
            (Lang::Es, true) => "1 línea".into(),
            (Lang::Es, false) => format!("{n} líneas"),
        }
    }

    /// `a`, `b` and `c`, with "and N more" past `max`.
    pub fn list(self, items: &[String], max: usize) -> String {
        let and = if self.es() { "y" } else { "and" };
        let shown: Vec<&str> = items.iter().take(max).map(String::as_str).collect();
        let more = items.len().saturating_sub(max);
        match (shown.len(), more) {
            (0, _) => String::new(),
            (1, 0) => shown[0].to_string(),
            (n, 0) => format!("{} {and} {}", shown[..n - 1].join(", "), shown[n - 1]),
            (_, m) => format!("{} {and} {}", shown.join(", "), self.more(m)),
        }
    }

    /// `3 more` / `3 más`.
    pub fn more(self, n: usize) -> String {
        if self.es() {
            format!("{n} más")
        } else {
            format!("{n} more")
        }
    }

    /// `exactly 3`, `at most 3`, `at least 3`, `none`.
    pub fn bound(self, kind: BoundKind, n: i64) -> String {
        match (self, kind, n) {
            (Lang::En, BoundKind::Exactly, 0) | (Lang::En, BoundKind::AtMost, 0) => "none".into(),
            (Lang::Es, BoundKind::Exactly, 0) | (Lang::Es, BoundKind::AtMost, 0) => "ninguno".into(),
            (Lang::En, BoundKind::Exactly, n) => format!("exactly {n}"),
            (Lang::En, BoundKind::AtMost, n) => format!("at most {n}"),
            (Lang::En, BoundKind::AtLeast, n) => format!("at least {n}"),
            (Lang::Es, BoundKind::Exactly, n) => format!("exactamente {n}"),
            (Lang::Es, BoundKind::AtMost, n) => format!("como máximo {n}"),
            (Lang::Es, BoundKind::AtLeast, n) => format!("como mínimo {n}"),
        }
    }

    /// `at most 1 copy` / `como máximo 2 copias`.
    pub fn bound_copies(self, kind: BoundKind, n: i64) -> String {
        match (self, kind, n) {
            (Lang::En, BoundKind::Exactly | BoundKind::AtMost, 0) => "no copies".into(),
            (Lang::Es, BoundKind::Exactly | BoundKind::AtMost, 0) => "ninguna copia".into(),
            (Lang::En, BoundKind::Exactly, n) => format!("exactly {}", self.copies(n)),
            (Lang::En, BoundKind::AtMost, n) => format!("at most {}", self.copies(n)),
            (Lang::En, BoundKind::AtLeast, n) => format!("at least {}", self.copies(n)),
            (Lang::Es, BoundKind::Exactly, n) => format!("exactamente {}", self.copies(n)),
            (Lang::Es, BoundKind::AtMost, n) => format!("como máximo {}", self.copies(n)),
            (Lang::Es, BoundKind::AtLeast, n) => format!("como mínimo {}", self.copies(n)),
        }
    }

    /// "basic: 11 of 12", "cards: 61 (at most 60)", "gods: 1 (none allowed)".
    pub fn count_text(self, label: &str, found: i64, kind: BoundKind, n: Option<i64>) -> String {
        match (self, kind, n) {
            (Lang::En, BoundKind::Exactly | BoundKind::AtMost, Some(0)) => format!("{label}: {found} (none allowed)"),
            (Lang::Es, BoundKind::Exactly | BoundKind::AtMost, Some(0)) => {
                format!("{label}: {found} (no se permite ninguno)")
            }
            (Lang::En, BoundKind::Exactly, Some(n)) => format!("{label}: {found} of {n}"),
            (Lang::Es, BoundKind::Exactly, Some(n)) => format!("{label}: {found} de {n}"),
            (_, k, Some(n)) => format!("{label}: {found} ({})", self.bound(k, n)),
            (_, _, None) => format!("{label}: {found}"),
        }
    }

    pub fn spent(self, label: &str, spent: i64, budget: i64) -> String {
        if self.es() {
            format!("{label}: {spent} gastados de {budget}")
        } else {
            format!("{label}: {spent} spent of {budget}")
        }
    }

    /// "— 1 left while 5 cards are still affordable".
    pub fn left_affordable(self, left: i64, n: usize) -> String {
        match (self, left == 1, n == 1) {
            (Lang::En, _, true) => format!("{left} left while 1 card is still affordable"),
            (Lang::En, _, false) => format!("{left} left while {n} cards are still affordable"),
            (Lang::Es, true, true) => "sobra 1 y aún se puede comprar 1 carta".into(),
            (Lang::Es, true, false) => format!("sobra 1 y aún se pueden comprar {n} cartas"),
            (Lang::Es, false, true) => format!("sobran {left} y aún se puede comprar 1 carta"),
            (Lang::Es, false, false) => format!("sobran {left} y aún se pueden comprar {n} cartas"),
        }
    }

    pub fn spend_expected(self, budget: i64) -> String {
        if self.es() {
            format!("exactamente {budget} (solo sobran puntos cuando ya no se puede comprar nada)")
        } else {
            format!("exactly {budget} (points are left over only when nothing more can be bought)")
        }
    }

    pub fn affordable(self, items: &[String]) -> String {
        if self.es() {
            format!("se puede comprar: {}", self.list(items, 3))
        } else {
            format!("affordable: {}", self.list(items, 3))
        }
    }

    pub fn cost(self, name: &str, cost: i64) -> String {
        if self.es() {
            format!("{name} (coste {cost})")
        } else {
            format!("{name} (cost {cost})")
        }
    }

    pub fn copies_of(self, label: &str, n: i64, card: &str, bound: &str) -> String {
        if self.es() {
            format!("{label}: {} de {card} ({bound})", self.copies(n))
        } else {
            format!("{label}: {} of {card} ({bound})", self.copies(n))
        }
    }

    pub fn needs(self, label: &str, card: &str, base: &str, noun: &str) -> String {
        if self.es() {
            format!("{label}: {card} necesita {base} en la lista")
        } else {
            format!("{label}: {card} needs {base} in the {noun}")
        }
    }

    pub fn in_the_list(self, card: &str, noun: &str) -> String {
        if self.es() {
            format!("{card} en la lista")
        } else {
            format!("{card} in the {noun}")
        }
    }

    pub fn missing(self) -> &'static str {
        if self.es() { "falta" } else { "missing" }
    }

    /// "Croquet Match belongs to Alice, not Medusa" (one or several cards).
    pub fn belongs(self, label: &str, cards: &[String], n_cards: usize, other: &str, owner: &str) -> String {
        let list = self.list(cards, 3);
        match (self, n_cards == 1) {
            (Lang::En, true) => format!("{label}: {list} belongs to {other}, not {owner}"),
            (Lang::En, false) => format!("{label}: {list} belong to {other}, not {owner}"),
            (Lang::Es, _) => format!(
                "{label}: {list} {} de {other}, no de {owner}",
                if n_cards == 1 { "es" } else { "son" }
            ),
        }
    }

    pub fn nobody(self) -> &'static str {
        if self.es() { "nadie" } else { "nobody" }
    }

    pub fn cards_of(self, owner: &str) -> String {
        if self.es() {
            format!("cartas de {owner}")
        } else {
            format!("cards of {owner}")
        }
    }

    /// The hint when the header names the wrong owner for most of the list.
    pub fn wrong_header(self, k: usize, total: usize, other: &str, key: &str, noun: &str) -> String {
        match (self, k == total) {
            (Lang::En, true) => format!("every card of the {noun} belongs to {other}: did you mean `{key}: {other}`?"),
            (Lang::En, false) => format!(
                "{k} of the {noun}'s {} belong to {other}: did you mean `{key}: {other}`?",
                self.cards(total as i64)
            ),
            (Lang::Es, true) => {
                format!("todas las cartas de la lista son de {other}: ¿quisiste decir `{key}: {other}`?")
            }
            (Lang::Es, false) => format!(
                "{k} de {} de la lista son de {other}: ¿quisiste decir `{key}: {other}`?",
                self.cards(total as i64)
            ),
        }
    }

    pub fn lists(self, label: &str, have: i64, unit: &str, owner: &str, n: i64) -> String {
        if self.es() {
            format!("{label}: {have} {unit} donde {owner} indica {n}")
        } else {
            format!("{label}: {have} {unit} where {owner} lists {n}")
        }
    }

    pub fn as_listed(self, n: i64, owner: &str) -> String {
        if self.es() {
            format!("{n}, como indica {owner}")
        } else {
            format!("{n}, as {owner} lists")
        }
    }

    pub fn not_listed(self, label: &str, unit: &str, owner: &str) -> String {
        if self.es() {
            format!("{label}: {unit} no está en la lista de {owner}")
        } else {
            format!("{label}: {unit} is not in {owner}'s list")
        }
    }

    pub fn only_listed(self, owner: &str) -> String {
        if self.es() {
            format!("solo las unidades que indica {owner}")
        } else {
            format!("only the units {owner} lists")
        }
    }

    pub fn no_reserve(self, label: &str, unit: &str, piece: &str, pieces: i64, used: i64) -> String {
        if self.es() {
            format!(
                "{label}: no queda ninguna pieza «{piece}» de {unit} para la reserva ({pieces} en el kit, {used} en juego)"
            )
        } else {
            format!("{label}: {unit} has no {piece} left for the reserve ({pieces} in the kit, {used} in play)")
        }
    }

    pub fn one_left(self) -> &'static str {
        if self.es() {
            "que quede al menos 1"
        } else {
            "at least 1 left"
        }
    }

    /// "scenario army: Zeus, Medusa and Minotaur is not one of the lists set by Learning scenario".
    pub fn none_of(self, label: &str, have: &str, mode: &str) -> String {
        let have = if have.is_empty() { self.nothing() } else { have };
        if self.es() {
            format!("{label}: {have} no es ninguna de las listas fijadas por {mode}")
        } else {
            format!("{label}: {have} is not one of the lists set by {mode}")
        }
    }

    /// "one of: a, b and c; or d, e and f".
    pub fn one_of_lists(self, options: &[String]) -> String {
        let or = if self.es() { "; o " } else { "; or " };
        let head = if self.es() { "uno de" } else { "one of" };
        format!("{head}: {}", options.join(or))
    }

    pub fn nothing(self) -> &'static str {
        if self.es() { "nada" } else { "nothing" }
    }

    pub fn distinct(self, label: &str, n: i64, kind: BoundKind, bound: Option<i64>, values: &[String]) -> String {
        format!("{}: {}", self.count_text(label, n, kind, bound), self.list(values, 4))
    }

    pub fn not_checked(self) -> &'static str {
        if self.es() { "sin comprobar" } else { "not checked" }
    }

    pub fn no_mode(self) -> &'static str {
        if self.es() { "no se indica el modo" } else { "no mode" }
    }

    pub fn not_given(self, key: &str) -> String {
        if self.es() {
            format!("no se indica `{key}`")
        } else {
            format!("no `{key}` given")
        }
    }

    pub fn not_valid(self, key: &str) -> String {
        if self.es() {
            format!("`{key}` no es válido")
        } else {
            format!("`{key}` is not valid")
        }
    }

    pub fn mode_lacks(self, mode: &str, field: &str) -> String {
        if self.es() {
            format!("el modo `{mode}` no tiene `{field}`")
        } else {
            format!("mode `{mode}` has no `{field}`")
        }
    }

    pub fn one_of(self, items: &str) -> String {
        if self.es() {
            format!("uno de {items}")
        } else {
            format!("one of {items}")
        }
    }

    pub fn unknown_mode(self, m: &str) -> String {
        if self.es() {
            format!("modo desconocido `{m}`")
        } else {
            format!("unknown mode `{m}`")
        }
    }

    pub fn mode_missing(self) -> &'static str {
        if self.es() {
            "no se indica el modo de juego"
        } else {
            "no game mode given"
        }
    }

    pub fn mode_expected(self, modes: &str) -> String {
        if self.es() {
            format!("`--mode` (o `--players`) o una línea `modo:`; modos: {modes}")
        } else {
            format!("`--mode` (or `--players`) or a `mode:` header line; modes: {modes}")
        }
    }

    pub fn no_mode_for(self, n: &str) -> String {
        if self.es() {
            format!("ningún modo es para {n} jugadores")
        } else {
            format!("no mode is for {n} players")
        }
    }

    pub fn unknown_role(self, r: &str) -> String {
        if self.es() {
            format!("papel desconocido `{r}`")
        } else {
            format!("unknown role `{r}`")
        }
    }

    pub fn names_no(self, key: &str, value: &str, kind: &str) -> String {
        if self.es() {
            format!("`{key}: {value}` no nombra ningún componente «{kind}»")
        } else {
            format!("`{key}: {value}` names no {kind}")
        }
    }

    pub fn names_several(self, key: &str, value: &str, ids: &str) -> String {
        if self.es() {
            format!("`{key}: {value}` nombra varios: {ids}; escribe el id")
        } else {
            format!("`{key}: {value}` names several: {ids}; write the id")
        }
    }

    pub fn not_whole(self, key: &str, value: &str) -> String {
        if self.es() {
            format!("`{key}: {value}` no es un número entero")
        } else {
            format!("`{key}: {value}` is not a whole number")
        }
    }

    pub fn whole_number(self) -> &'static str {
        if self.es() {
            "un número entero"
        } else {
            "a whole number"
        }
    }

    pub fn names_none(self, key: &str, noun: &str) -> String {
        if self.es() {
            format!("la lista no indica `{key}`")
        } else {
            format!("the {noun} names no {key}")
        }
    }

    pub fn line_naming(self, key: &str, items: &str) -> String {
        if self.es() {
            format!("una línea `{key}:` con uno de {items}")
        } else {
            format!("a `{key}:` line naming one of {items}")
        }
    }

    pub fn line_or_param(self, key: &str, id: &str) -> String {
        if self.es() {
            format!("una línea `{key}:` o `--param {id}=N`")
        } else {
            format!("a `{key}:` line or `--param {id}=N`")
        }
    }

    pub fn other_game(self, noun: &str, g: &str, game: &str) -> String {
        if self.es() {
            format!("esta lista es de `{g}`, no de `{game}`")
        } else {
            format!("this {noun} is for `{g}`, not `{game}`")
        }
    }

    pub fn did_you_mean(self, s: &str) -> String {
        if self.es() {
            format!("¿quisiste decir `{s}`?")
        } else {
            format!("did you mean `{s}`?")
        }
    }

    // Reading problems.

    pub fn bad_count(self, n: u32, max: u32) -> (String, String, String) {
        if self.es() {
            (
                format!("`{n}` no es un número de copias válido"),
                "número de copias".into(),
                format!("de 1 a {max} copias"),
            )
        } else {
            (
                format!("`{n}` is not a usable number of copies"),
                "count".into(),
                format!("1 to {max} copies"),
            )
        }
    }

    pub fn unknown_card(self, name: &str) -> (String, &'static str) {
        if self.es() {
            (format!("ninguna carta se llama `{name}`"), "carta desconocida")
        } else {
            (format!("no card is called `{name}`"), "unknown card")
        }
    }

    pub fn ambiguous(self, name: &str, ids: &str) -> String {
        if self.es() {
            format!("`{name}` nombra varias cartas: {ids}; escribe el id")
        } else {
            format!("`{name}` names several cards: {ids}; write the id instead")
        }
    }

    pub fn no_count(self, written: &str) -> (String, &'static str, String) {
        if self.es() {
            (
                format!("`{written}` nombra una carta pero no dice cuántas copias"),
                "una carta sin número de copias",
                format!("`1 {written}` (o `{written} x1`)"),
            )
        } else {
            (
                format!("`{written}` names a card but gives no number of copies"),
                "a card without a count",
                format!("`1 {written}` (or `{written} x1`)"),
            )
        }
    }

    pub fn unreadable(self) -> (&'static str, &'static str, &'static str) {
        if self.es() {
            (
                "esta línea no es ni una carta ni un título de sección",
                "no se entiende",
                "`3 Nombre de carta` (o `Nombre de carta x3`), una línea `clave: valor`, un título de sección o un comentario con `#`",
            )
        } else {
            (
                "this line is neither a card nor a section header",
                "not understood",
                "`3 Card name` (or `Card name x3`), a `key: value` header line, a section title, or a `#` comment",
            )
        }
    }

    pub fn did_you_mean_line(self, s: &str) -> String {
        if self.es() {
            format!("¿quisiste decir `1 {s}`?")
        } else {
            format!("did you mean `1 {s}`?")
        }
    }

    pub fn unknown_key(self, key: &str) -> (String, &'static str) {
        if self.es() {
            (format!("cabecera desconocida `{key}`"), "clave desconocida")
        } else {
            (format!("unknown header `{key}`"), "unknown key")
        }
    }

    pub fn header_control(self, key: &str, found: char) -> (String, &'static str, &'static str) {
        let found = found.escape_unicode();
        if self.es() {
            (
                format!("`{key}` contiene un carácter de control ({found})"),
                "este valor",
                "un texto de caracteres imprimibles en una sola línea",
            )
        } else {
            (
                format!("`{key}` holds a control character ({found})"),
                "this value",
                "text of printable characters on one line",
            )
        }
    }

    pub fn header_twice(self, key: &str) -> (String, &'static str) {
        if self.es() {
            (
                format!("`{key}` aparece dos veces con valores distintos"),
                "primera vez aquí",
            )
        } else {
            (
                format!("`{key}` is given twice with different values"),
                "first given here",
            )
        }
    }

    pub fn empty(self, noun: &str) -> (String, &'static str) {
        if self.es() {
            (
                "la lista no nombra ninguna carta".into(),
                "una línea `3 Nombre de carta` por carta",
            )
        } else {
            (format!("the {noun} names no card"), "one `3 Card name` line per card")
        }
    }

    pub fn more_lines(self, n: usize) -> String {
        match (self, n == 1) {
            (Lang::En, true) => "… and 1 more line that cannot be read".into(),
            (Lang::En, false) => format!("… and {n} more lines that cannot be read"),
            (Lang::Es, true) => "… y 1 línea más que no se puede leer".into(),
            (Lang::Es, false) => format!("… y {n} líneas más que no se pueden leer"),
        }
    }

    pub fn more_lines_involved(self, n: usize) -> String {
        match (self, n == 1) {
            (Lang::En, true) => "… and 1 more line is involved".into(),
            (Lang::En, false) => format!("… and {n} more lines are involved"),
            (Lang::Es, true) => "… y 1 línea más implicada".into(),
            (Lang::Es, false) => format!("… y {n} líneas más implicadas"),
        }
    }

    pub fn counted_here(self) -> &'static str {
        if self.es() { "contada aquí" } else { "counted here" }
    }

    pub fn and_here(self) -> &'static str {
        if self.es() { "y aquí" } else { "and here" }
    }

    pub fn named_here(self) -> &'static str {
        if self.es() { "indicado aquí" } else { "named here" }
    }

    pub fn rules_reference(self, section: &str) -> String {
        if self.es() {
            format!("reglamento: sección `{section}`")
        } else {
            format!("rules reference: section `{section}`")
        }
    }

    // The summary.

    pub fn legal(self) -> &'static str {
        // The same word in both languages.
        "legal"
    }

    /// "ilegal" and "legal" agree with any noun (`mazo`, `lista`, `ejército`).
    pub fn illegal(self, problems: usize) -> String {
        if self.es() {
            format!("ilegal — {}", self.problems(problems))
        } else {
            format!("illegal — {}", self.problems(problems))
        }
    }

    pub fn mode_role(self, mode: &str, role: Option<&str>) -> String {
        match (self, role) {
            (Lang::En, Some(r)) => format!("{mode}, role {r}"),
            (Lang::Es, Some(r)) => format!("{mode}, papel {r}"),
            (_, None) => mode.to_string(),
        }
    }

    pub fn total(self) -> &'static str {
        "total"
    }

    // Reading the file and the layout.

    pub fn unreadable_verdict(self) -> &'static str {
        if self.es() {
            "no se puede leer"
        } else {
            "cannot be read"
        }
    }

    /// "line 2, column 5: byte 0xF3 is not UTF-8 …".
    pub fn unreadable_file(self, line: u32, column: u32, reason: &str) -> String {
        let head = if self.es() {
            "el archivo no se puede leer como lista"
        } else {
            "the file cannot be read as a list"
        };
        match (self, line) {
            (_, 0) => format!("{head}: {reason}"),
            (Lang::Es, _) => format!("{head}: línea {line}, columna {column}: {reason}"),
            (Lang::En, _) => format!("{head}: line {line}, column {column}: {reason}"),
        }
    }

    /// How the other reading of a choice would have turned out.
    pub fn other_reading(self, unread: usize, rules: &[String], noun: &str) -> String {
        match (self, unread, rules.is_empty()) {
            (Lang::En, 0, true) => format!("the {noun} would be legal that way too"),
            (Lang::Es, 0, true) => "así también sería legal".into(),
            (Lang::En, 0, false) => format!("that way the {noun} breaks {}", self.list(rules, 4)),
            (Lang::Es, 0, false) => format!("así incumpliría {}", self.list(rules, 4)),
            (Lang::En, n, _) => format!("that way {} cannot be read", self.lines(n)),
            (Lang::Es, n, _) => format!(
                "así {} no se {}",
                self.lines(n),
                if n == 1 { "puede leer" } else { "pueden leer" }
            ),
        }
    }

    /// Numbers 1, 2, 3 … at the start of lines: item numbers or copies.
    pub fn items_note(self, first: u32, last: u32, numbered: bool, other: &str) -> String {
        match (self, numbered) {
            (Lang::En, true) => format!(
                "lines {first}–{last} start with 1, 2, 3 …: read as item numbers, not copies (read as copies, {other})"
            ),
            (Lang::En, false) => {
                format!("lines {first}–{last} start with 1, 2, 3 …: read as copies (read as item numbers, {other})")
            }
            (Lang::Es, true) => format!(
                "las líneas {first}–{last} empiezan por 1, 2, 3 …: se leen como números de orden, no como copias (leídos como copias, {other})"
            ),
            (Lang::Es, false) => format!(
                "las líneas {first}–{last} empiezan por 1, 2, 3 …: se leen como copias (leídos como números de orden, {other})"
            ),
        }
    }

    /// A table without a header row has several columns of numbers.
    pub fn column_note(self, column: usize, others: &[usize], other: &str) -> String {
        let others: Vec<String> = others.iter().map(usize::to_string).collect();
        if self.es() {
            format!(
                "la tabla no tiene cabecera y tiene varias columnas de números: la columna {column} se lee como copias (con la columna {} como copias, {other})",
                self.list(&others, 3)
            )
        } else {
            format!(
                "the table has no header row and several columns of numbers: column {column} is read as the copies (with column {} as the copies, {other})",
                self.list(&others, 3)
            )
        }
    }

    pub fn sideboard(self) -> &'static str {
        if self.es() {
            "banquillo (sin comprobar)"
        } else {
            "sideboard (not checked)"
        }
    }
}

/// Text from a list or a file name as a terminal may show it: control
/// characters (which could move the cursor, retitle the window or recolour
/// the screen) written as `\u{1b}` escapes.
pub fn printable(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoundKind {
    Exactly,
    AtLeast,
    AtMost,
}

impl BoundKind {
    pub fn of(b: &crate::model::construction::Bound) -> BoundKind {
        use crate::model::construction::Bound;
        match b {
            Bound::Exactly(_) => BoundKind::Exactly,
            Bound::AtLeast(_) => BoundKind::AtLeast,
            Bound::AtMost(_) => BoundKind::AtMost,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_in_both_locales() {
        assert_eq!(Lang::En.copies(1), "1 copy");
        assert_eq!(Lang::En.copies(2), "2 copies");
        assert_eq!(Lang::Es.copies(1), "1 copia");
        assert_eq!(Lang::Es.bound_copies(BoundKind::AtMost, 1), "como máximo 1 copia");
        assert_eq!(Lang::En.bound_copies(BoundKind::AtMost, 1), "at most 1 copy");
        assert_eq!(Lang::Es.left_affordable(1, 1), "sobra 1 y aún se puede comprar 1 carta");
        assert_eq!(
            Lang::En.list(&["a".into(), "b".into(), "c".into(), "d".into()], 2),
            "a, b and 2 more"
        );
        assert_eq!(Lang::Es.list(&["a".into(), "b".into()], 3), "a y b");
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("Ana\u{1b}]0;owned\u{7}"), "Ana\\u{1b}]0;owned\\u{7}");
        assert_eq!(printable("Lucía"), "Lucía");
    }
}
