//! Designer facts about a variant's data, for `seams spec check`: the
//! initial bishops and their colour classes (GEO-I2), whether every initial
//! pawn can walk to its promotion target on the empty board, and every drop
//! the drop restrictions allow onto a cell the dropped piece could never
//! leave.
//!
//! A family gathers the facts that need its piece rules through
//! [`crate::rules::Rules::design_facts`]; the colouring is computed here
//! from the board alone, so that every family with square cells is judged
//! by one definition.

use serde::Serialize;

use crate::rules::Player;
use crate::topology::mesh::{OddCycle, odd_cycle};
use crate::topology::{Board, CellId};

/// The colour classes of a board (GEO-I2), as `seams spec check` shows them.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Colouring {
    /// An alternating colouring exists; `dark` is the class of the board's
    /// first cell (`a1`, or `I:a1` on a board of several charts).
    Exists {
        #[serde(skip)]
        dark: Vec<bool>,
    },
    /// No alternating colouring: an odd cycle of orthogonal steps, and the
    /// seam steps on it where the charts' own checkerboards disagree.
    None {
        cycle_length: usize,
        seam_steps: Vec<String>,
    },
    /// The board has no square cells (the tetrahedron).
    NotSquare,
}

impl Colouring {
    /// The colouring of `board`, or the odd cycle that forbids one.
    pub fn of(board: &Board) -> Colouring {
        match odd_cycle(board) {
            Ok(colour) => {
                let first = colour.first().copied().unwrap_or(false);
                Colouring::Exists {
                    dark: colour.into_iter().map(|c| c == first).collect(),
                }
            }
            Err(OddCycle { steps }) => Colouring::None {
                cycle_length: steps.len(),
                seam_steps: steps
                    .iter()
                    .filter(|s| s.parity_kept)
                    .map(|s| {
                        format!(
                            "{} {}→ {}",
                            board.cell_name(s.from),
                            s.dir,
                            board.cell_name(s.to)
                        )
                    })
                    .collect(),
            },
        }
    }
}

/// Each player's initial bishops by colour class.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct BishopColours {
    pub colouring: Colouring,
    /// `[first player, second player]`; empty when there is no colouring.
    pub players: Vec<PlayerBishops>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct PlayerBishops {
    pub owner: Player,
    pub dark: Vec<String>,
    pub light: Vec<String>,
    /// The counts on the two classes differ by at most one (GEO-I2).
    pub balanced: bool,
}

impl BishopColours {
    /// Sorts `bishops` by colour class of `colouring`.
    pub fn new(board: Option<&Board>, bishops: &[(Player, CellId)]) -> BishopColours {
        let Some(board) = board else {
            return BishopColours {
                colouring: Colouring::NotSquare,
                players: Vec::new(),
            };
        };
        let colouring = Colouring::of(board);
        let players = match &colouring {
            Colouring::Exists { dark } => [Player::First, Player::Second]
                .into_iter()
                .map(|owner| {
                    let (mut d, mut l) = (Vec::new(), Vec::new());
                    for &(_, c) in bishops.iter().filter(|(o, _)| *o == owner) {
                        if dark[c.index()] {
                            d.push(board.cell_name(c).to_string());
                        } else {
                            l.push(board.cell_name(c).to_string());
                        }
                    }
                    PlayerBishops {
                        owner,
                        balanced: d.len().abs_diff(l.len()) <= 1,
                        dark: d,
                        light: l,
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        BishopColours { colouring, players }
    }

    /// `Some(false)` when a colouring exists and some player's bishops are
    /// not balanced.
    pub fn balanced(&self) -> Option<bool> {
        match self.colouring {
            Colouring::Exists { .. } => Some(self.players.iter().all(|p| p.balanced)),
            _ => None,
        }
    }
}

/// One per-player rule judged under the exchange Φ: the cells where the
/// two players' sets are not each other's image. Both lists empty: the
/// rule mirrors.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct MirrorCheck {
    pub rule: String,
    /// The first player's cells whose image under Φ the second player's
    /// set lacks.
    pub first_only: Vec<String>,
    /// The second player's cells that are not the image of any of the
    /// first player's.
    pub second_only: Vec<String>,
}

impl MirrorCheck {
    /// Whether the two players' cells are each other's image under Φ.
    pub fn mirrors(&self) -> bool {
        self.first_only.is_empty() && self.second_only.is_empty()
    }
}

/// Judges each of `rules` under Φ (`phi`, indexed by cell) on `board`.
pub fn mirror_checks(
    board: &Board,
    phi: &[CellId],
    rules: &[crate::rules::design_facts::PlayerCells],
) -> Vec<MirrorCheck> {
    let image = |c: CellId| phi.get(c.index()).copied();
    rules
        .iter()
        .map(|r| {
            let [first, second] = &r.cells;
            let names = |cells: Vec<CellId>| -> Vec<String> {
                cells
                    .into_iter()
                    .map(|c| board.cell_name(c).to_string())
                    .collect()
            };
            let first_only = first
                .iter()
                .copied()
                .filter(|&c| image(c).is_none_or(|i| !second.contains(&i)))
                .collect();
            let second_only = second
                .iter()
                .copied()
                .filter(|&c| !first.iter().any(|&f| image(f) == Some(c)))
                .collect();
            MirrorCheck {
                rule: r.rule.clone(),
                first_only: names(first_only),
                second_only: names(second_only),
            }
        })
        .collect()
}
