//! The Mythic Battles answers to the effect interpreter ([`Host`]):
//! timings, conditions, targets and uses, for the [`Ctx`] of one moment.

use super::effects::{AREA, Cond, Ctx, Def, Mv, Out, Per, Res, When, Who};
use super::state::State;
use super::tables::MAXA;
use crate::rules::Engine;
use crate::rules::kit::effects::{Host, Src, Word};

impl Host for Ctx<'_> {
    type V = Mv;
    type State = State;
    type Obj = u8;

    fn def(&self, src: &Src<u8>) -> &Def {
        &self.e.t.fx.defs[usize::from(src.card)]
    }

    fn card_id(&self, src: &Src<u8>) -> String {
        self.e.t.fx.names[usize::from(src.card)].clone()
    }

    fn open(&self, _s: &State, _src: &Src<u8>, when: When) -> bool {
        self.open & 1 << (when as u32) != 0
    }

    fn now(&self, s: &State) -> String {
        let open: Vec<&str> = When::ALL
            .iter()
            .filter(|(_, w)| self.open & 1 << (*w as u32) != 0)
            .map(|(n, _)| *n)
            .collect();
        format!(
            "turn {}{}",
            s.turn,
            if open.is_empty() {
                String::new()
            } else {
                format!(" ({})", open.join(", "))
            }
        )
    }

    fn holds(&self, s: &State, src: &Src<u8>, c: &Cond, obj: Option<u8>) -> bool {
        let e = self.e;
        let area_of = |u: usize| match self.entering {
            Some((k, a)) if usize::from(k) == u => Some(a),
            _ => s.units[u].on_board().then_some(s.units[u].at),
        };
        let unit = obj
            .or(src.at)
            .filter(|k| *k < AREA && usize::from(*k) < s.units.len())
            .map(usize::from);
        let st = self.strike;
        match c {
            Cond::Melee => st.is_some_and(|x| x.melee),
            Cond::Ranged => st.is_some_and(|x| !x.melee),
            Cond::NormalAttack => st.is_some_and(|x| !x.special),
            Cond::InOwnArea => st.is_some_and(|x| s.units[x.a].at == s.units[x.d].at),
            Cond::FlyingAttacker => st.is_some_and(|x| e.def(s, x.a).flying),
            Cond::Against(v) => st.is_some_and(|x| v.contains(&e.def(s, x.d).cat)),
            Cond::FriendHere => unit.is_some_and(|u| e.company_of(s, u, false)),
            Cond::FullTroopHere => unit.is_some_and(|u| e.company_of(s, u, true)),
            Cond::FiguresAtLeast(n) => unit.is_some_and(|u| e.figures_left(s, u) >= *n),
            Cond::Category(v) => unit.is_some_and(|u| v.contains(&e.def(s, u).cat)),
            Cond::NotCategory(v) => unit.is_some_and(|u| !v.contains(&e.def(s, u).cat)),
            Cond::Here => match (unit, e.src_area(s, src)) {
                (Some(u), Some(a)) => area_of(u) == Some(a),
                _ => false,
            },
            Cond::NotFlying => unit.is_some_and(|u| !e.def(s, u).flying),
            Cond::NotAquatic => unit.is_some_and(|u| !e.def(s, u).aquatic),
            Cond::NotFireproof => unit.is_some_and(|u| !e.def(s, u).fireproof),
            Cond::WithoutTalent(t) => unit.is_some_and(|u| {
                let d = e.def(s, u);
                !(e.talents_on(s, u)
                    && d.talent_ids
                        .iter()
                        .any(|&i| e.t.fx.talent_ids.name(usize::from(i)) == t.as_str()))
            }),
            Cond::Wounded => unit.is_some_and(|u| s.units[u].wounds > 0),
            Cond::OwnTurn => usize::from(src.owner) == e.to_move(s),
            Cond::ActivatedBelow(n) => s.t.activations < *n,
        }
    }

    fn count(&self, _s: &State, _src: &Src<u8>, _c: &Cond, _obj: Option<u8>) -> i16 {
        0
    }

    fn is(&self, s: &State, src: &Src<u8>, who: Who, k: u8) -> bool {
        if k >= AREA || usize::from(k) >= s.units.len() {
            return false;
        }
        let u = &s.units[usize::from(k)];
        let team = self.e.team(s, usize::from(k));
        match who {
            Who::Itself => src.at == Some(k),
            Who::FriendlyUnit => src.at != Some(k) && u.alive() && self.e.src_team(s, src) == Some(team),
            Who::EnemyUnit => u.alive() && self.e.src_team(s, src).is_some_and(|t| t != team),
            Who::AnyUnit => u.alive(),
            Who::UnitHere => {
                let at = match self.entering {
                    Some((e, a)) if e == k => a,
                    _ => u.at,
                };
                (at as usize) < MAXA && self.e.src_area(s, src) == Some(at)
            }
        }
    }

    fn candidates(&self, s: &State, src: &Src<u8>, who: Who) -> Vec<u8> {
        (0..s.units.len() as u8).filter(|&k| self.is(s, src, who, k)).collect()
    }

    fn cap(&self, _s: &State, _src: &Src<u8>, _out: Out, _obj: Option<u8>) -> Option<i16> {
        None
    }

    fn used(&self, s: &State, src: &Src<u8>, clause: u8, per: Per) -> u8 {
        s.uses.get(src.owner, src.card, clause, per)
    }

    fn afford(&self, _s: &State, _src: &Src<u8>, _res: Res, _n: i16) -> bool {
        true
    }

    fn show(&self, s: &State, k: u8) -> String {
        if k >= AREA {
            let a = usize::from(k - AREA);
            return format!("`{}`", self.e.board(s).areas.get(a).map_or("?", |x| x.id.as_str()));
        }
        format!("`{}`", self.e.uid(s, usize::from(k)))
    }

    fn recorded(&self, out: Out) -> bool {
        matches!(out, Out::FreeCounter)
    }
}
