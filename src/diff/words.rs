//! Our own words for changelogs and reprint covers, per locale (English
//! for a locale we have no words for). The game's own words — piece, kind
//! and field names, enum names, glossary terms — come from its pack.

/// Every phrase a changelog or a reprint cover uses.
pub struct Words {
    pub name: &'static str,
    pub icon: &'static str,
    pub size: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    /// `{old}` and `{new}` are the two versions.
    pub title: &'static str,
    /// `{old}`: changes up to the current version.
    pub title_since: &'static str,
    pub nothing: &'static str,
    pub added: &'static str,
    pub removed: &'static str,
    pub changed: &'static str,
    pub copies: &'static str,
    /// `{old}` → `{new}` copies.
    pub copies_now: &'static str,
    pub new_piece: &'static str,
    pub gone_piece: &'static str,
    pub art_redrawn: &'static str,
    pub art_changed: &'static str,
    pub icon_redrawn: &'static str,
    pub variant_redrawn: &'static str,
    pub text_removed: &'static str,
    pub text_added: &'static str,
    pub none: &'static str,
    pub rules: &'static str,
    pub section_added: &'static str,
    pub section_removed: &'static str,
    pub section_changed: &'static str,
    pub facts: &'static str,
    pub glossary: &'static str,
    pub quickref_changed: &'static str,
    pub layout_changed: &'static str,
    pub reprint_title: &'static str,
    /// `{version}`: the stamp on the new pieces.
    pub reprint_intro: &'static str,
    pub reprint_intro_plain: &'static str,
    pub take_out: &'static str,
    pub put_in: &'static str,
    pub replace: &'static str,
    pub nothing_to_take_out: &'static str,
    pub nothing_to_print: &'static str,
    pub reprint_rules: &'static str,
    /// `{n}` copies of a piece.
    pub times: &'static str,
}

const EN: Words = Words {
    name: "Name",
    icon: "Icon",
    size: "Trim size",
    yes: "yes",
    no: "no",
    title: "Changes from {old} to {new}",
    title_since: "Changes since {old}",
    nothing: "Nothing changed.",
    added: "New",
    removed: "Removed",
    changed: "Changed",
    copies: "Copies",
    copies_now: "now {new} copies (was {old})",
    new_piece: "new",
    gone_piece: "removed",
    art_redrawn: "new artwork",
    art_changed: "different artwork",
    icon_redrawn: "redrawn icon",
    variant_redrawn: "printed anew",
    text_removed: "text removed",
    text_added: "new text",
    none: "none",
    rules: "Rules",
    section_added: "new section",
    section_removed: "section removed",
    section_changed: "reworded",
    facts: "Key numbers",
    glossary: "Glossary",
    quickref_changed: "The quick reference changed.",
    layout_changed: "The card layouts changed: every piece may look different. Rebuild the whole kit to see the new look everywhere.",
    reprint_title: "Reprint pack",
    reprint_intro: "These sheets hold only the pieces that changed or are new since your printing. The new pieces carry the mark {version}.",
    reprint_intro_plain: "These sheets hold only the pieces that changed or are new since your printing.",
    take_out: "Take out of your copy",
    put_in: "Put in from these sheets",
    replace: "replaces the old one",
    nothing_to_take_out: "Nothing to take out.",
    nothing_to_print: "No piece to print.",
    reprint_rules: "The rules changed: the new rules reference is part of this pack.",
    times: "×{n}",
};

const ES: Words = Words {
    name: "Nombre",
    icon: "Icono",
    size: "Tamaño de corte",
    yes: "sí",
    no: "no",
    title: "Cambios de {old} a {new}",
    title_since: "Cambios desde {old}",
    nothing: "No ha cambiado nada.",
    added: "Novedades",
    removed: "Retiradas",
    changed: "Cambios",
    copies: "Copias",
    copies_now: "ahora {new} copias (antes {old})",
    new_piece: "nueva",
    gone_piece: "retirada",
    art_redrawn: "ilustración nueva",
    art_changed: "otra ilustración",
    icon_redrawn: "icono redibujado",
    variant_redrawn: "se imprime de nuevo",
    text_removed: "texto eliminado",
    text_added: "texto nuevo",
    none: "ninguno",
    rules: "Reglamento",
    section_added: "sección nueva",
    section_removed: "sección eliminada",
    section_changed: "redactada de nuevo",
    facts: "Números clave",
    glossary: "Glosario",
    quickref_changed: "La referencia rápida ha cambiado.",
    layout_changed: "El diseño de las piezas ha cambiado: cualquier pieza puede verse distinta. Vuelve a generar el kit completo para ver el diseño nuevo en todas.",
    reprint_title: "Paquete de reimpresión",
    reprint_intro: "Estas hojas contienen solo las piezas que han cambiado o son nuevas desde tu impresión. Las piezas nuevas llevan la marca {version}.",
    reprint_intro_plain: "Estas hojas contienen solo las piezas que han cambiado o son nuevas desde tu impresión.",
    take_out: "Retira de tu copia",
    put_in: "Añade de estas hojas",
    replace: "sustituye a la anterior",
    nothing_to_take_out: "No hay nada que retirar.",
    nothing_to_print: "No hay piezas que imprimir.",
    reprint_rules: "El reglamento ha cambiado: este paquete incluye el reglamento nuevo.",
    times: "×{n}",
};

/// The words of a locale.
pub fn of(locale: &str) -> &'static Words {
    match locale {
        "es" => &ES,
        _ => &EN,
    }
}

pub fn name(locale: &str) -> &'static str {
    of(locale).name
}

pub fn icon(locale: &str) -> &'static str {
    of(locale).icon
}

pub fn size(locale: &str) -> &'static str {
    of(locale).size
}

pub fn yes_no(locale: &str, b: bool) -> &'static str {
    if b { of(locale).yes } else { of(locale).no }
}
