"""Tests of seams_notation: the four family grammars (spec/*/notation.abnf),
the interpretations NT-I1 to NT-I10 (spec/notation/rules.md) and the
refusal order of conformance/PROTOCOL.md, with fake engines.

    python3 -m unittest discover -s tools/python
"""

import unittest

import seams_notation as sn


def derives(family, text):
    return sn.read_action(family, text) is not None


class Fake:
    """An `ask` that answers from keyword arguments (a value, or a function
    of the question's arguments) and records the questions in order. A
    question it has no answer for fails the test: it should not be asked."""

    def __init__(self, **answers):
        self.answers, self.asked = answers, []

    def __getattr__(self, name):
        if not hasattr(sn.Ask, name):
            raise AttributeError(name)

        def answer(*args):
            self.asked.append(name)
            if name not in self.answers:
                raise AssertionError(f"{name}{args} was asked")
            value = self.answers[name]
            return value(*args) if callable(value) else value
        return answer


def legal_move(**over):
    """Answers for a move that passes every row, changed by `over`."""
    answers = dict(cell_exists=True, piece_at="P", reachable=True, outcomes={None},
                   arrives_facing=True, fitting=1)
    answers.update(over)
    return Fake(**answers)


def legal_drop(**over):
    answers = dict(cell_exists=True, in_hand=True, drop_allowed=True, drop_safe=True,
                   drop_mates=False)
    answers.update(over)
    return Fake(**answers)


class Families(unittest.TestCase):
    def test_family_of(self):
        for variant, family in [("shogi-flat", "shogi"), ("shogi-mobius", "shogi"),
                                ("shogi-klein", "shogi"), ("shogi-genus2", "shogi"),
                                ("chess-flat", "chess"), ("chess-mobius", "chess"),
                                ("chess-klein", "chess"), ("chess-genus2", "chess"),
                                ("kyoto", "kyoto"), ("tetra-shogi", "tetra"),
                                ("tetra-hexgi", "tetra")]:
            self.assertEqual(sn.family_of(variant), family)
        self.assertIsNone(sn.family_of("chess"))

    def test_unknown_family(self):
        with self.assertRaises(ValueError):
            sn.read_action("go", "e2-e4")

    def test_not_a_string(self):
        self.assertIsNone(sn.read_action("chess", None))
        self.assertIsNone(sn.read_position("chess", 5))


class ShogiGrammar(unittest.TestCase):
    def test_board_moves(self):
        for text in ["e3-e4", "i8-a2+", "e12-e13=", "II:e6-II:e7+", "e3-e4^", "e3-e4v",
                     "h2-h7=v", "a1-b2+^", "j1-j2", "I:e3-e4", "Ab1:e3-e4"]:
            self.assertTrue(derives("shogi", text), text)
        a = sn.read_action("shogi", "II:e6-II:e7+^")
        self.assertEqual((a.kind, a.origin, a.target, a.promotion, a.facing),
                         ("move", sn.Cell("II:e6", "e", "6", "II"),
                          sn.Cell("II:e7", "e", "7", "II"), "+", "^"))

    def test_drops(self):
        # Q is a letter too: which letters name kinds is the variant's data,
        # judged after the grammar (NT-I9).
        for text in ["P*e5", "G*I:c4", "K*e5", "Q*e5", "+S*e5", "S*e5+", "S*e5=", "P*e5^",
                     "P*e5+^"]:
            self.assertTrue(derives("shogi", text), text)
        a = sn.read_action("shogi", "+S*e5=v")
        self.assertEqual((a.kind, a.piece, a.target.text, a.promoted, a.promotion, a.facing),
                         ("drop", "S", "e5", True, "=", "v"))

    def test_not_derived(self):
        for text in ["", "e3e4", "e3-e4+=", "e3-e4=+", "e0-e4", "e03-e4", "e3-e4 +", "e3-e4^+",
                     "q*e5", "P*e5*", "P-e5", "I::e3-e4", ":e3-e4", "e3-e4x"]:
            self.assertFalse(derives("shogi", text), text)

    def test_game_actions(self):
        self.assertEqual(sn.read_game_action("shogi", "resign").kind, "resign")
        self.assertEqual(sn.read_game_action("shogi", "draw").kind, "draw")
        self.assertEqual(sn.read_game_action("shogi", "e3-e4").kind, "move")
        for text in ["Resign", "DRAW", "resign "]:
            self.assertIsNone(sn.read_game_action("shogi", text), text)
        self.assertIsNone(sn.read_action("shogi", "resign"))  # outside a game: syntax

    def test_positions(self):
        start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL A - 1"
        p = sn.read_position("shogi", start)
        self.assertEqual((p.side, p.hands, p.move_number), ("A", (), 1))
        self.assertEqual(len(p.placement), 1)
        self.assertEqual(p.placement[0][1][0], 1)
        self.assertEqual(p.placement[0][1][1], sn.Piece("r", "r"))
        # Pvv is a pawn facing down and a piece v (any letter, NT-I9; the
        # variant then refuses v, NT-I12).
        for text in ["9/9|9/9 B 2P10p", "+Pv8/9 b -", "k8/9 w P 12", "1+p^+Rv/10 A -",
                     "12/9 A Kk", "09/9 A -", "Pvv A -"]:
            self.assertIsNotNone(sn.read_position("shogi", text), text)
        p = sn.read_position("shogi", "+Pv2|10 B 2P10pG")
        self.assertEqual(p.placement, (((sn.Piece("+Pv", "P", True, "v"), 2),), ((10,),)))
        self.assertEqual(p.hands, ((2, "P"), (10, "p"), (1, "G")))
        for text in ["9/9 C -", "9/9 A P2", "9/9 A 0P", "9/9 A - 0", "9//9 A -",
                     "9/9 A", "9/9 A - 1 2", "9/9 A +", "9/9 A x-", "+9 A -", "P^^ A -"]:
            self.assertIsNone(sn.read_position("shogi", text), text)


class ChessGrammar(unittest.TestCase):
    def test_moves(self):
        for text in ["e2-e4", "Bd1-g4", "NI:d1-I:c3", "e7xd8=Q", "e2\u2013e4", "e2\u2014e4",
                     "e7-e8v=Q", "Pe2xe4^", "a1:b2-c3", "e1-g1", "i9-a1", "K:e1-e2"]:
            self.assertTrue(derives("chess", text), text)
        a = sn.read_action("chess", "Pe7xd8v=N")
        self.assertEqual((a.piece, a.origin.text, a.separator, a.target.text, a.facing,
                          a.promotion), ("P", "e7", "x", "d8", "v", "=N"))

    def test_a_letter_that_may_begin_a_chart(self):
        a = sn.read_action("chess", "NI:d1-I:c3")
        self.assertEqual((a.piece, a.origin.chart), ("N", "I"))
        self.assertEqual((a.other.piece, a.other.origin.chart), (None, "NI"))
        self.assertIsNone(sn.read_action("chess", "Ng1-f3").other)
        self.assertIsNone(sn.read_action("chess", "N:g1-f3").piece)  # chart N

    def test_castling(self):
        for word in ["O-O", "O-O-O", "O-O-east", "O-O-west"]:
            a = sn.read_action("chess", word)
            self.assertEqual((a.kind, a.castling), ("castling", word))
        for text in ["o-o", "O-O-East", "O-O-o", "O-O-O-O", "O-O-north", "OO"]:
            self.assertFalse(derives("chess", text), text)

    def test_not_derived(self):
        for text in ["e2e4", "e2-e4=q", "e2-e4=", "e2-e4+", "e2\u2010e4", "e2_e4",
                     "Ke2", "kE1-e2", "p e2-e4", "e2-e4=QN"]:
            self.assertFalse(derives("chess", text), text)

    def test_positions(self):
        p = sn.read_position("chess", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
        self.assertEqual((p.side, p.rights, p.en_passant[0].text, p.halfmoves, p.move_number),
                         ("b", "KQkq", "e3", 0, 1))
        p = sn.read_position("chess", "P^+4/P-v3|8 w - I:e2-I:e3-I:e4^ 3 p12")
        self.assertEqual(p.placement[0][0][0], sn.Piece("P^+", "P", False, "^", "+"))
        self.assertEqual(p.placement[0][1][0], sn.Piece("P-v", "P", False, "v", "-"))
        self.assertEqual([c.text for c in p.en_passant[:3]] + [p.en_passant[3]],
                         ["I:e2", "I:e3", "I:e4", "^"])
        self.assertEqual((p.halfmoves, p.move_number, p.ply), (3, None, 12))
        for text in ["8/8 w - -", "8/8 b K - 0", "8/8 w KKkk - 0 p0", "K^/8 w - - 0 1",
                     "Nv+/8 w Qq e2-e3-e4v"]:
            self.assertIsNotNone(sn.read_position("chess", text), text)
        for text in ["8/8 w - - 0 0", "8/8 w - - 00", "8/8 w KQkqK - 0 1", "8/8 w - e2-e3-e4",
                     "8/8 W - -", "8/8 w x -", "8/8 w - - p1", "P^^/8 w - -", "P++ w - -",
                     "8/8 w - - 0 1 2", "8/8 w - - 0 p01"]:
            self.assertIsNone(sn.read_position("chess", text), text)


class KyotoGrammar(unittest.TestCase):
    def test_actions(self):
        # Any upper-case letter is a face letter of the grammar (NT-I9).
        for text in ["a1-a2", "T*c3", "+L*c3", "a1-a2+", "a1-a2=", "P*e5=", "I:a1-a2", "R*c3+",
                     "K*c3", "A*c3", "X*c3"]:
            self.assertTrue(derives("kyoto", text), text)
        for text in ["a1-a2^", "t*c3", "a1-a2+=", "T*c3v", "TL*c3", "**c3", "1*c3"]:
            self.assertFalse(derives("kyoto", text), text)

    def test_positions(self):
        p = sn.read_position("kyoto", "p+lk+sn/5/5/5/N+SK+LP[] w - - 0 1")
        self.assertTrue(p.placeholders)
        self.assertEqual((p.side, p.hands, p.halfmoves, p.move_number), ("w", (), 0, 1))
        self.assertEqual(p.placement[0][0][1], sn.Piece("+l", "l", True))
        p = sn.read_position("kyoto", "11111/5[Pp] b 3 7")
        self.assertEqual(p.placement[0][0], (1, 1, 1, 1, 1))
        self.assertEqual((p.hands, p.placeholders, p.halfmoves), (((1, "P"), (1, "p")), False, 3))
        # Any letter is a piece or hand letter of the grammar (NT-I9).
        for text in ["5/5/5/5/5[-] b", "5[] w - -", "5[Kk] b - - 10 2", "T4[] w", "+Xq3[Ee] w"]:
            self.assertIsNotNone(sn.read_position("kyoto", text), text)
        p = sn.read_position("kyoto", "+Xq3[Ee] w")
        self.assertEqual(p.placement[0][0][:2],
                         (sn.Piece("+X", "X", True), sn.Piece("q", "q", False)))
        self.assertEqual(p.hands, ((1, "E"), (1, "e")))
        for text in ["10/5[] w", "5[] w -", "5[] w 0", "5[+P] w", "5[] A", "5 w", "5[]  w",
                     "5[] w - - 0", "5[--] w", "0[] w", "+5[] w", "5[P-] w", "5[1] w", "T+[] w"]:
            self.assertIsNone(sn.read_position("kyoto", text), text)


class TetraGrammar(unittest.TestCase):
    def test_actions(self):
        for text in ["c3.2-c4.2", "c3.2-c4.2+", "c3.2-c4.2=G", "P*c5.3", "+Z*a1.1=Q", "a10.1-b2.3",
                     "Z*c5.3", "a1.1-a2.1=Z", "z9.9-a1.1"]:
            self.assertTrue(derives("tetra", text), text)
        a = sn.read_action("tetra", "c3.2-c4.12=G")
        self.assertEqual((a.origin, a.target.level, a.promotion),
                         (sn.Cell("c3.2", "c", "3", level="2"), "12", "=G"))
        for text in ["c3.2c4.2", "c3-c4", "c3.2-c4.2=g", "c3.2-c4.2=", "c3.02-c4.2", "p*c5.3",
                     "c3.2-c4.2+G", "c3.0-c4.2", "I:c3.2-c4.2", "c3.2-c4.2^"]:
            self.assertFalse(derives("tetra", text), text)

    def test_positions(self):
        p = sn.read_position("tetra", "+Ab3/9 w 2Pp")
        self.assertEqual(p.placement, (((sn.Piece("+A", "A", True), sn.Piece("b", "b"), 3), (9,)),))
        self.assertEqual(p.hands, ((2, "P"), (1, "p")))
        for text in ["9 b -", "Zz/10 w 12Q"]:
            self.assertIsNotNone(sn.read_position("tetra", text), text)
        for text in ["9 A -", "9 w", "9 w - 1", "9 w P2", "9 w 0P", "+9 w -", "9 w +P", "A^ w -"]:
            self.assertIsNone(sn.read_position("tetra", text), text)


class Interpretations(unittest.TestCase):
    """The near-misses of NT-I1 to NT-I10, each with the verdict
    spec/notation/rules.md decides for it."""

    def test_nt_i1_whitespace(self):
        for family, text in [("chess", "e2-e4 "), ("chess", " e2-e4"), ("chess", "e2-e4\n"),
                             ("chess", "e2-e4\t"), ("shogi", "e3-e4 "), ("kyoto", "a1-a2 "),
                             ("tetra", "c3.2-c4.2 ")]:
            self.assertFalse(derives(family, text), repr(text))
            self.assertEqual(sn.rank(family, text, Fake()), "syntax")
        start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        self.assertIsNotNone(sn.read_position("chess", start))
        for text in [start + " ", " " + start, start.replace(" w ", "  w "),
                     start.replace(" w ", "\tw ")]:
            self.assertIsNone(sn.read_position("chess", text), repr(text))
        self.assertIsNone(sn.read_position("shogi", "9/9 A -  1"))
        self.assertIsNone(sn.read_position("kyoto", "5[] w "))
        self.assertIsNone(sn.read_position("tetra", "9  w -"))

    def test_nt_i2_unneeded_true_marks_are_read(self):
        for text in ["d1-d2^", "e3-e4^"]:
            ask = legal_move(piece_at="G")
            self.assertIsNone(sn.rank("shogi", text, ask), text)
            self.assertIn("arrives_facing", ask.asked)
        ask = legal_move(arrives_facing=False)
        self.assertEqual(sn.rank("shogi", "e3-e4v", ask), "unreachable")

    def test_nt_i3_upper_case_files(self):
        for family, text in [("shogi", "D1-d2"), ("chess", "E2-e4"), ("chess", "e2-E4"),
                             ("chess", "D1")]:
            self.assertEqual(sn.rank(family, text, Fake()), "syntax", text)
        # A lower-case file past the edge is a cell name the board lacks.
        ask = Fake(cell_exists=lambda c: c.file <= "i")
        self.assertEqual(sn.rank("shogi", "j1-j2", ask), "no-such-cell")
        self.assertEqual(sn.read_action("chess", "Bd1-g4").piece, "B")

    def test_nt_i4_marks_on_pieces_without_facing(self):
        for text, kind in [("e5-e6^", "K"), ("b1-a1v", "N")]:
            ask = legal_move(piece_at=kind, arrives_facing=False)
            self.assertEqual(sn.rank("chess", text, ask), "unreachable", text)
            self.assertNotIn("fitting", ask.asked)
        # A promoting pawn: its choice is asked about.
        ask = legal_move(outcomes={"=Q", "=R", "=B", "=N"}, arrives_facing=False)
        self.assertEqual(sn.rank("chess", "e7-e8^=Q", ask), "unreachable")
        # Castling as the king's move, judged after the castling itself.
        ask = legal_move(piece_at="K", reachable=False, castling_of="east", castling_allowed=True)
        self.assertEqual(sn.rank("chess", "f1-h1^", ask), "unreachable")
        ask = legal_move(piece_at="K", reachable=False, castling_of="east", castling_allowed=False)
        self.assertEqual(sn.rank("chess", "f1-h1^", ask), "castling")
        # A shogi king, rook or bishop.
        ask = legal_move(piece_at="K", arrives_facing=False)
        self.assertEqual(sn.rank("shogi", "e1-e2^", ask), "unreachable")

    def test_nt_i5_zeros(self):
        for text in ["0-0", "0-0-0"]:
            self.assertEqual(sn.rank("chess", text, Fake()), "syntax")

    def test_nt_i6_castling_words_without_castling(self):
        for word in ["O-O", "O-O-O", "O-O-east", "O-O-west"]:
            ask = Fake(has_castling=False)
            self.assertEqual(sn.rank("chess", word, ask), "castling", word)
            self.assertEqual(ask.asked, ["has_castling"])
        mobius = dict(has_castling=True, castling_names_side=True)
        for word in ["O-O", "O-O-O"]:
            self.assertEqual(sn.rank("chess", word, Fake(**mobius)), "ambiguous", word)
        ask = Fake(castling_allowed=lambda side: side == "east", **mobius)
        self.assertIsNone(sn.rank("chess", "O-O-east", ask))
        self.assertEqual(sn.rank("chess", "O-O-west", ask), "castling")
        flat = Fake(has_castling=True, castling_names_side=False,
                    castling_allowed=lambda side: side == "west")
        self.assertEqual(sn.judge("chess", "O-O-O", flat).castle, "west")
        self.assertEqual(sn.rank("chess", "O-O", flat), "castling")

    def test_nt_i7_charts_the_board_lacks(self):
        genus2 = legal_move(cell_exists=lambda c: c.chart in ("I", "II"))
        self.assertEqual(sn.rank("shogi", "III:e3-III:e4", genus2), "no-such-cell")
        self.assertEqual(sn.rank("shogi", "e3-e4", genus2), "no-such-cell")
        one_chart = legal_move(cell_exists=lambda c: c.chart is None)
        self.assertEqual(sn.rank("chess", "I:e5-e6", one_chart), "no-such-cell")

    def test_nt_i8_drop_letters_are_upper_case(self):
        for family, text in [("shogi", "p*e5"), ("kyoto", "t*c3"), ("tetra", "p*c5.3")]:
            self.assertEqual(sn.rank(family, text, Fake()), "syntax", text)

    def test_nt_i9_tetrahedral_letters(self):
        ask = legal_drop(in_hand=lambda letter: letter == "P")
        self.assertEqual(sn.rank("tetra", "Z*c5.3", ask), "no-piece")
        # Kyoto: a letter of no face, or the king's, is no token in hand,
        # asked after the cell (order 4 before 5).
        for text in ["X*c3", "K*c3"]:
            ask = legal_drop(in_hand=lambda letter: letter in "TLSBGNPR")
            self.assertEqual(sn.rank("kyoto", text, ask), "no-piece", text)
            self.assertEqual(ask.asked, ["cell_exists", "in_hand"], text)
        ask = legal_drop(in_hand=lambda letter: letter in "TLSBGNPR", cell_exists=False)
        self.assertEqual(sn.rank("kyoto", "X*z9", ask), "no-such-cell")
        ask = legal_move(outcomes={None, "=G"})
        self.assertEqual(sn.rank("tetra", "a1.1-a2.1=Z", ask), "promotion")
        self.assertIsNone(sn.rank("tetra", "a1.1-a2.1=G", legal_move(outcomes={None, "=G"})))

    def test_nt_i10_extra_marks_and_cells(self):
        for family, text in [("chess", "e4^v"), ("chess", "e2-e4^v"), ("chess", "e2-e4-e6"),
                             ("chess", "e7-e8=Q^"), ("shogi", "P*e5^+"), ("shogi", "e3-e4^v"),
                             ("shogi", "e3-e4-e5")]:
            self.assertEqual(sn.rank(family, text, Fake()), "syntax", text)


class RefusalOrder(unittest.TestCase):
    """rank asks in the table's order and stops at the deciding row."""

    def test_a_legal_move_asks_every_row(self):
        ask = legal_move()
        self.assertIsNone(sn.rank("shogi", "e3-e4", ask))
        self.assertEqual(ask.asked, ["cell_exists", "cell_exists", "piece_at", "reachable",
                                     "outcomes", "fitting"])
        ask = legal_move()
        self.assertIsNone(sn.rank("chess", "e2-e4^", ask))
        self.assertEqual(ask.asked[-2:], ["arrives_facing", "fitting"])

    def test_no_such_cell_before_no_piece(self):
        ask = legal_move(cell_exists=lambda c: c.text != "e10", piece_at=None)
        self.assertEqual(sn.rank("shogi", "e1-e10", ask), "no-such-cell")
        self.assertNotIn("piece_at", ask.asked)
        ask = legal_drop(cell_exists=False, in_hand=False)
        self.assertEqual(sn.rank("shogi", "P*e10", ask), "no-such-cell")
        self.assertEqual(ask.asked, ["cell_exists"])

    def test_a_second_reading_of_the_origin(self):
        ask = legal_move(cell_exists=lambda c: c.chart == "I", piece_at="N")
        verdict = sn.judge("chess", "NI:d1-I:c3", ask)
        self.assertEqual((verdict.reason, verdict.action.piece, verdict.action.origin.text),
                         (None, "N", "I:d1"))
        ask = legal_move(cell_exists=lambda c: c.chart == "NI", piece_at="N")
        verdict = sn.judge("chess", "NI:d1-I:c3", ask)
        self.assertEqual(verdict.reason, "no-such-cell")  # I:c3 does not exist
        ask = legal_move(cell_exists=lambda c: c.chart in ("NI", "I"), piece_at="B")
        verdict = sn.judge("chess", "NI:d1-I:c3", ask)
        self.assertEqual((verdict.reason, verdict.action.piece), ("no-piece", "N"))

    def test_no_piece(self):
        self.assertEqual(sn.rank("shogi", "e5-e6", legal_move(piece_at=None)), "no-piece")
        ask = legal_move(piece_at="N")
        self.assertEqual(sn.rank("chess", "Bg1-f3", ask), "no-piece")
        self.assertNotIn("reachable", ask.asked)
        self.assertIsNone(sn.rank("chess", "Ng1-f3", legal_move(piece_at="N")))
        ask = legal_drop(in_hand=False)
        self.assertEqual(sn.rank("shogi", "K*e5", ask), "no-piece")
        self.assertEqual(ask.asked, ["cell_exists", "in_hand"])

    def test_unreachable_before_promotion(self):
        ask = legal_move(reachable=False)
        self.assertEqual(sn.rank("shogi", "h2-h7=", ask), "unreachable")
        self.assertNotIn("outcomes", ask.asked)
        # Only a chess king's move is asked about castling.
        ask = legal_move(piece_at="R", reachable=False)
        self.assertEqual(sn.rank("chess", "h1-f1", ask), "unreachable")
        self.assertNotIn("castling_of", ask.asked)
        ask = legal_move(piece_at="K", reachable=False, castling_of=None)
        self.assertEqual(sn.rank("chess", "e1-h1", ask), "unreachable")

    def test_castling_as_the_kings_move(self):
        ask = legal_move(piece_at="K", reachable=False, castling_of="east", castling_allowed=True)
        verdict = sn.judge("chess", "Ke1-g1", ask)
        self.assertEqual((verdict.reason, verdict.castle), (None, "east"))
        self.assertEqual(ask.asked[-2:], ["castling_of", "castling_allowed"])
        ask = legal_move(piece_at="K", reachable=False, castling_of="east", castling_allowed=False)
        self.assertEqual(sn.rank("chess", "e1-g1=Q", ask), "castling")
        ask = legal_move(piece_at="K", reachable=False, castling_of="east", castling_allowed=True)
        self.assertEqual(sn.rank("chess", "e1-g1=Q", ask), "promotion")  # order 7 ...
        self.assertEqual(sn.rank("chess", "e1-g1v=Q", ask), "promotion")  # ... before 8

    def test_text_alone_at_order_three(self):
        for family, text in [("shogi", "+S*e5"), ("shogi", "S*e5+"), ("shogi", "S*e5="),
                             ("shogi", "P*e5+^"), ("kyoto", "a1-a2+"), ("kyoto", "a1-a2="),
                             ("kyoto", "+T*c3"), ("tetra", "+P*c5.3"), ("tetra", "P*c5.3+"),
                             ("tetra", "P*c5.3=Q")]:
            ask = Fake()
            self.assertEqual(sn.rank(family, text, ask), "promotion", text)
            self.assertEqual(ask.asked, [], text)
        ask = Fake()
        self.assertEqual(sn.rank("shogi", "P*e5^", ask), "drop-restriction")
        self.assertEqual(ask.asked, [])

    def test_drop_rows(self):
        ask = legal_drop(drop_allowed=False, drop_safe=False)
        self.assertEqual(sn.rank("shogi", "P*e5", ask), "drop-restriction")
        self.assertNotIn("drop_safe", ask.asked)
        ask = legal_drop(drop_safe=False, drop_mates=True)
        self.assertEqual(sn.rank("shogi", "P*a8", ask), "king-in-check")
        self.assertNotIn("drop_mates", ask.asked)
        self.assertEqual(sn.rank("shogi", "P*a8", legal_drop(drop_mates=True)), "drop-restriction")
        ask = legal_drop()
        self.assertIsNone(sn.rank("shogi", "G*a8", ask))
        self.assertNotIn("drop_mates", ask.asked)  # only pawn drops mate by rule
        ask = legal_drop()
        self.assertIsNone(sn.rank("kyoto", "P*c3", ask))
        self.assertNotIn("drop_mates", ask.asked)
        self.assertEqual(sn.rank("tetra", "P*c5.3", legal_drop(drop_safe=False)), "king-in-check")

    def test_shogi_promotion_choices(self):
        both, must, cannot = {None, "+"}, {"+"}, {None}
        for text, outcomes, code in [("c7-c8", both, "promotion"), ("c7-c8+", both, None),
                                     ("c7-c8=", both, None), ("c8-c9", must, None),
                                     ("c8-c9=", must, "promotion"), ("c3-c4=", cannot, "promotion"),
                                     ("c3-c4+", cannot, "promotion"), ("c3-c4", cannot, None)]:
            self.assertEqual(sn.rank("shogi", text, legal_move(outcomes=outcomes)), code, text)
        asked = []
        sn.rank("shogi", "c8-c9^",
                legal_move(outcomes=must, arrives_facing=lambda *a: asked.append(a) or True))
        self.assertEqual(asked[0][2:], ("+", "^"))  # the compulsory promotion's outcome

    def test_chess_promotion_choices(self):
        promoting = {"=Q", "=R", "=B", "=N"}
        ask = legal_move(outcomes=promoting, fitting=0)
        self.assertEqual(sn.rank("chess", "g7-g8", ask), "promotion")  # order 7 before 9
        self.assertNotIn("fitting", ask.asked)
        self.assertEqual(sn.rank("chess", "g7-g8=Q", legal_move(outcomes=promoting, fitting=0)),
                         "king-in-check")
        self.assertEqual(sn.rank("chess", "e1-e2=Q", legal_move(piece_at="K")), "promotion")
        ask = legal_move(piece_at="K", arrives_facing=False)
        self.assertEqual(sn.rank("chess", "e1-e2^=Q", ask), "promotion")
        self.assertNotIn("arrives_facing", ask.asked)

    def test_kyoto_has_no_choice(self):
        ask = legal_move(piece_at="K")
        self.assertIsNone(sn.rank("kyoto", "c1-c2", ask))
        self.assertNotIn("outcomes", ask.asked)

    def test_order_nine(self):
        self.assertEqual(sn.rank("shogi", "e3-e4", legal_move(fitting=0)), "king-in-check")
        self.assertEqual(sn.rank("chess", "I:e2-I:e4", legal_move(fitting=2)), "ambiguous")
        seen = []
        sn.rank("chess", "e2-e4v", legal_move(fitting=lambda *a: seen.append(a) or 1))
        self.assertEqual(seen[0][2:], (None, "v"))

    def test_game_actions_are_not_refused_here(self):
        self.assertIsNone(sn.rank("chess", sn.read_game_action("chess", "resign"), Fake()))
        self.assertEqual(sn.rank("chess", "resign", Fake()), "syntax")


if __name__ == "__main__":
    unittest.main()
