//! Laws of the small algebra the geometry relies on: transports form a
//! group acting on directions and facings. Checked with quickcheck over
//! every combination it generates.

use quickcheck::{Arbitrary, Gen, quickcheck};
use seams::movement::Facing;
use seams::topology::{Dir, Transport};

#[derive(Clone, Copy, Debug)]
struct T(Transport);
#[derive(Clone, Copy, Debug)]
struct D(Dir);
#[derive(Clone, Copy, Debug)]
struct F(Facing);

impl Arbitrary for T {
    fn arbitrary(g: &mut Gen) -> Self {
        T(*g.choose(&Transport::ALL).expect("non-empty"))
    }
}
impl Arbitrary for D {
    fn arbitrary(g: &mut Gen) -> Self {
        D(*g.choose(&Dir::ALL).expect("non-empty"))
    }
}
impl Arbitrary for F {
    fn arbitrary(g: &mut Gen) -> Self {
        F(*g.choose(&[Facing::Up, Facing::Down]).expect("non-empty"))
    }
}

quickcheck! {
    fn composition_is_associative(a: T, b: T, c: T) -> bool {
        a.0.then(b.0).then(c.0) == a.0.then(b.0.then(c.0))
    }

    fn every_transport_undoes_itself(a: T, d: D) -> bool {
        a.0.then(a.0.inverse()) == Transport::IDENTITY
            && a.0.inverse().apply(a.0.apply(d.0)) == d.0
    }

    fn composition_acts_in_order(a: T, b: T, d: D) -> bool {
        a.0.then(b.0).apply(d.0) == b.0.apply(a.0.apply(d.0))
    }

    fn transport_commutes_with_opposite(a: T, d: D) -> bool {
        a.0.apply(d.0.opposite()) == a.0.apply(d.0).opposite()
    }

    fn opposite_is_an_involution(d: D) -> bool {
        d.0.opposite().opposite() == d.0 && d.0.opposite() != d.0
    }

    fn diagonals_split_into_their_cardinals(d: D) -> bool {
        match d.0.split() {
            None => d.0.is_cardinal(),
            Some((h, v)) => {
                let (hx, _) = h.vector();
                let (_, vy) = v.vector();
                d.0.vector() == (hx, vy)
            }
        }
    }

    fn facing_reverses_exactly_under_vertical_flips(a: T, f: F) -> bool {
        (f.0.transported(a.0) != f.0) == a.0.flip_y
    }

    fn absolute_direction_follows_facing(f: F, d: D) -> bool {
        let abs = f.0.absolute(d.0);
        match f.0 {
            Facing::Up => abs == d.0,
            Facing::Down => abs.vector() == (d.0.vector().0, -d.0.vector().1),
        }
    }
}
