//! The attack roll (MB-8): which numbers of successes the logged dice allow.
//!
//! A die shows a blank (written `0`) or 1 to 5. Blanks are lost. Any
//! numbered die may be set aside for a +1 token given to another die. Dice
//! worth 5 (naturally or with tokens) may be rerolled, the result added to
//! the 5 (a rerolled blank makes the die worth 0 and removes it). After the
//! reroll more dice may be set aside. A die whose total is at least the
//! target's defense is a success. (A die reaching 10 may be rolled once more,
//! but since defense never exceeds 10 that can only lose a success: logs
//! have no field for it.)

/// Why a roll cannot be what the log says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RollError {
    /// A die face outside blank (0) and 1..=5.
    Face(u8),
    /// More rerolled dice than dice that could be brought to 5.
    Rerolls { asked: usize, possible: usize },
}

/// Most dice that can be rerolled: the highest numbered dice are lifted to
/// 5 with tokens from the other numbered dice.
pub fn max_rerolls(roll: &[u8]) -> usize {
    let mut numbered: Vec<u8> = roll.iter().copied().filter(|v| (1..=5).contains(v)).collect();
    numbered.sort_unstable_by(|a, b| b.cmp(a));
    let mut lift = 0usize;
    let mut best = 0;
    for k in 1..=numbered.len() {
        lift += 5 - numbered[k - 1] as usize;
        if lift <= numbered.len() - k {
            best = k;
        }
    }
    best
}

/// The most successes the logged dice allow against `defense`; every
/// number from 0 to that one is reachable (a success may always be set
/// aside instead).
pub fn max_successes(roll: &[u8], reroll: &[u8], defense: u8) -> Result<u8, RollError> {
    if let Some(&f) = roll.iter().chain(reroll).find(|&&v| v > 5) {
        return Err(RollError::Face(f));
    }
    let mut numbered = [0u8; 16];
    let mut n = 0;
    for &v in roll {
        if v > 0 && n < numbered.len() {
            numbered[n] = v;
            n += 1;
        }
    }
    let numbered = &mut numbered[..n];
    numbered.sort_unstable_by(|a, b| b.cmp(a));
    let k = reroll.len();
    let possible = max_rerolls(roll);
    if k > possible {
        return Err(RollError::Rerolls { asked: k, possible });
    }
    let lift: usize = numbered[..k].iter().map(|&v| 5 - v as usize).sum();
    // The pool after the reroll: rerolled dice still alive (6..=10), then
    // the kept initial dice (1..=5), best first.
    let mut pool = [0u8; 32];
    let mut m = 0;
    for &r in reroll {
        if r > 0 {
            pool[m] = 5 + r;
            m += 1;
        }
    }
    let alive_rerolled = m;
    for &v in &numbered[k..] {
        pool[m] = v;
        m += 1;
    }
    let pool = &mut pool[..m];
    pool.sort_unstable_by(|a, b| b.cmp(a));
    let initial_left = numbered.len() - k;
    for w in (0..=m).rev() {
        let cost: usize = pool[..w].iter().map(|&v| defense.saturating_sub(v) as usize).sum();
        let tokens = m - w;
        // Tokens for the lift come from initial dice outside the successes.
        let initial_in_w = w.saturating_sub(alive_rerolled);
        if lift + cost <= tokens && lift <= initial_left - initial_in_w.min(initial_left) {
            return Ok(w as u8);
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rulebook_example_gives_two_successes() {
        // Odysseus (5 dice) against Leonidas (defense 7): blank, 1, 2, 4, 5;
        // the 5 and the lifted 4 are rerolled for 3 and 1: 8 and 7.
        assert_eq!(max_successes(&[0, 1, 2, 4, 5], &[3, 1], 7), Ok(2));
        // Without rerolls the best die is a 5 (+2 tokens = 7): one success.
        assert_eq!(max_successes(&[0, 1, 2, 4, 5], &[], 7), Ok(1));
    }

    #[test]
    fn the_hydra_against_the_spartans() {
        // blank, 2, 3, 4, 5 against 6; rerolls blank and 2: one success.
        assert_eq!(max_successes(&[0, 2, 3, 4, 5], &[0, 2], 6), Ok(1));
    }

    #[test]
    fn rerolls_need_dice_worth_five() {
        assert_eq!(max_rerolls(&[1, 1, 1]), 0);
        assert_eq!(max_rerolls(&[4, 1]), 1);
        assert_eq!(max_rerolls(&[5, 5, 0]), 2);
        assert_eq!(
            max_successes(&[4, 1], &[3, 3], 5),
            Err(RollError::Rerolls { asked: 2, possible: 1 })
        );
        assert_eq!(max_successes(&[6], &[], 5), Err(RollError::Face(6)));
    }

    #[test]
    fn low_defense_counts_every_numbered_die() {
        assert_eq!(max_successes(&[1, 2, 0, 3], &[], 1), Ok(3));
        assert_eq!(max_successes(&[0, 0], &[], 0), Ok(0));
        // Tokens: 2 and 2 lift the 3 to 5 against defense 5.
        assert_eq!(max_successes(&[3, 2, 2], &[], 5), Ok(1));
    }
}
