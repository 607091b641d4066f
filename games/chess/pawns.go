package chess

// A side's pawn structure by whole bitboards: each set the pawns of one
// kind, found by filling the pawns along their files rather than square by
// square (TestPawnStructure holds them to square-by-square definitions).

// pawnStructure is side c's pawns by kind, and the sum of their ranks
// counted from c's side.
type pawnStructure struct {
	doubled  Bitboard // another pawn of the side ahead on the file
	isolated Bitboard // no pawn of the side on the next files
	backward Bitboard // not isolated, every pawn of the side on the next files ahead
	passed   Bitboard // no enemy pawn ahead on the file or the next ones
	rankSum  int
}

// fillUp is b with every square ahead of one of its squares towards rank
// 8; fillDown towards rank 1.
func fillUp(b Bitboard) Bitboard {
	b |= b << 8
	b |= b << 16
	return b | b<<32
}

func fillDown(b Bitboard) Bitboard {
	b |= b >> 8
	b |= b >> 16
	return b | b>>32
}

// sideways is the squares next to those of b on the same rank.
func sideways(b Bitboard) Bitboard { return (b&^fileH)<<1 | (b&^fileA)>>1 }

// rankBits[i] is the squares whose rank (0 to 7) has bit i set.
var rankBits = [3]Bitboard{0xff00ff00ff00ff00, 0xffff0000ffff0000, 0xffffffff00000000}

// pawnStructureOf returns the structure of side c's pawns against the
// enemy's.
func pawnStructureOf(c int, pawns, enemy Bitboard) pawnStructure {
	// behind: the squares behind a pawn of c on its file; atOrAhead: those
	// level with or ahead of one.
	behind, atOrAhead := fillDown(pawns>>8), fillUp(pawns)
	rankSum := popcount(pawns&rankBits[0]) + 2*popcount(pawns&rankBits[1]) + 4*popcount(pawns&rankBits[2])
	if c != white {
		behind, atOrAhead = fillUp(pawns<<8), fillDown(pawns)
		rankSum = 7*popcount(pawns) - rankSum
	}
	isolated := pawns &^ sideways(fillUp(fillDown(pawns)))
	return pawnStructure{
		doubled:  pawns & behind,
		isolated: isolated,
		backward: pawns &^ isolated &^ sideways(atOrAhead),
		passed:   passedPawns(c, pawns, enemy),
		rankSum:  rankSum,
	}
}

// passedPawns is side c's passed pawns: those with no enemy pawn ahead on
// their file or the next ones.
func passedPawns(c int, pawns, enemy Bitboard) Bitboard {
	front := fillUp(enemy << 8)
	if c == white {
		front = fillDown(enemy >> 8)
	}
	return pawns &^ (front | sideways(front))
}
