//! Dice as logs record them: the faces rolled, checked against the die's
//! faces; roll-offs that repeat while tied; random rolls for generated games.

use std::ops::RangeInclusive;

/// A six-sided die numbered 1 to 6.
pub const D6: RangeInclusive<u8> = 1..=6;

/// The first rolled face that the die does not have.
pub fn bad_face(roll: &[u8], faces: RangeInclusive<u8>) -> Option<u8> {
    roll.iter().copied().find(|f| !faces.contains(f))
}

/// Whether every die shows one of `faces`.
pub fn faces_ok(roll: &[u8], faces: RangeInclusive<u8>) -> bool {
    bad_face(roll, faces).is_none()
}

/// `[3, 5, 1]`.
pub fn show(roll: &[u8]) -> String {
    format!("[{}]", roll.iter().map(u8::to_string).collect::<Vec<_>>().join(", "))
}

/// `n` random faces.
pub fn roll(rng: &mut fastrand::Rng, n: usize, faces: RangeInclusive<u8>) -> Vec<u8> {
    (0..n).map(|_| rng.u8(faces.clone())).collect()
}

/// A two-player roll-off: one result per player per round (seat order),
/// rounds repeated while equal. The winner's seat (0 or 1), or why the
/// results are malformed.
pub fn roll_off(results: &[u8]) -> Result<u8, String> {
    if results.is_empty() || !results.len().is_multiple_of(2) {
        return Err(format!("{} dice", results.len()));
    }
    for (i, pair) in results.chunks(2).enumerate() {
        let last = i + 1 == results.len() / 2;
        if pair[0] != pair[1] {
            return if last {
                Ok(u8::from(pair[1] > pair[0]))
            } else {
                Err(format!(
                    "round {} was already decided ({} vs {})",
                    i + 1,
                    pair[0],
                    pair[1]
                ))
            };
        }
    }
    Err("the last round is still tied".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_offs_repeat_while_tied() {
        assert_eq!(roll_off(&[3, 5]), Ok(1));
        assert_eq!(roll_off(&[4, 4, 6, 2]), Ok(0));
        assert!(roll_off(&[4, 4]).unwrap_err().contains("still tied"));
        assert!(roll_off(&[6, 2, 3, 3]).unwrap_err().contains("already decided"));
        assert!(roll_off(&[1, 2, 3]).is_err());
    }

    #[test]
    fn faces_and_display() {
        assert!(faces_ok(&[1, 6], D6));
        assert_eq!(bad_face(&[1, 7, 0], D6), Some(7));
        assert_eq!(show(&[2, 4]), "[2, 4]");
        let mut rng = fastrand::Rng::with_seed(1);
        assert!(faces_ok(&roll(&mut rng, 50, D6), D6));
    }
}
