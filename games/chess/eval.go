package chess

import (
	"math"

	"github.com/gametune/gametune/games"
)

// relativeRank is the rank of square s counted from colour c's own side (0-7).
func relativeRank(c, s int) int {
	if c == white {
		return s / 8
	}
	return 7 - s/8
}

// articleRankBonus is the bonus by rank for rooks, knights, bishops and the
// queen, by rank counted from the own side: the source's C code gives 6-7 (home) / 2,5 / 3,4 (centre) / 0-1 (far side)
// for Black, and White's is its mirror.
var articleRankBonus = [4][8]int{
	{50, 50, 120, 150, 150, 120, 10, 10},   // rook
	{60, 60, 170, 130, 130, 170, 10, 10},   // knight
	{60, 60, 150, 200, 200, 150, 10, 10},   // bishop
	{80, 80, 200, 300, 300, 200, 100, 100}, // queen
}

func materialFeatures(p *Position, f []float64) {
	for k := Pawn; k <= Queen; k++ {
		f[k] = float64(popcount(p.pieces[p.turn][k]) - popcount(p.pieces[p.turn^1][k]))
	}
}

// withMaterial lists the five material terms both evaluators start with,
// then more.
func withMaterial(more []games.Feature) []games.Feature {
	return append([]games.Feature{
		{Name: "pawn", Doc: "pawns, difference", Default: 100, Min: 50, Max: 200, Step: 1},
		{Name: "knight", Doc: "knights, difference", Default: 300, Min: 150, Max: 600, Step: 1},
		{Name: "bishop", Doc: "bishops, difference", Default: 300, Min: 150, Max: 600, Step: 1},
		{Name: "rook", Doc: "rooks, difference", Default: 500, Min: 250, Max: 900, Step: 1},
		{Name: "queen", Doc: "queens, difference", Default: 950, Min: 500, Max: 1500, Step: 1},
	}, more...)
}

// articleEvaluator is a small classic evaluation: material, the per-piece
// bonuses by rank of its C code, and 30 points per move of the rooks,
// knights, bishops and queen (pawns and king not counted), in centipawns.
var articleEvaluator = &games.Evaluator{
	Name: "article",
	Doc:  "a small classic evaluation: material, a bonus by rank for each rook, knight, bishop and queen, and 30 per move of those pieces (centipawns)",
	Features: withMaterial([]games.Feature{
		{Name: "rank-bonus", Doc: "bonus by rank of rooks, knights, bishops and queen (the central ranks 4-5 best, the far ranks least), difference", Default: 1, Min: 0, Max: 2, Step: 0.05},
		{Name: "mobility", Doc: "moves of rooks, knights, bishops and queen, difference (30 each by default)", Default: 30, Min: 0, Max: 60, Step: 1},
	}),
	Evaluate: evaluateArticle,
	FeatureValues: func(gp games.Position, dst []float64) {
		var f [7]float64
		articleFeatures(gp.(*Position), &f)
		copy(dst, f[:])
	},
}

var articleKinds = [4]int{Rook, Knight, Bishop, Queen}

func evaluateArticle(gp games.Position, w []float64) int {
	var f [7]float64
	articleFeatures(gp.(*Position), &f)
	v := 0.0
	for i, x := range f {
		v += w[i] * x
	}
	return int(math.Round(v))
}

func articleFeatures(p *Position, f *[7]float64) {
	materialFeatures(p, f[:5])
	occ := p.occupied()
	for c, sign := range [2]float64{1, -1} {
		side := p.turn ^ c
		bonus, moves := 0, 0
		for i, k := range articleKinds {
			for b := p.pieces[side][k]; b != 0; b &= b - 1 {
				s := lsb(b)
				bonus += articleRankBonus[i][relativeRank(side, s)]
				moves += popcount(attacks(k, s, occ) &^ p.colors[side])
			}
		}
		f[5] += sign * float64(bonus)
		f[6] += sign * float64(moves)
	}
}

func attacks(k, s int, occ Bitboard) Bitboard {
	switch k {
	case Knight:
		return knightAttacks[s]
	case Bishop:
		return bishopAttacks(s, occ)
	case Rook:
		return rookAttacks(s, occ)
	case Queen:
		return bishopAttacks(s, occ) | rookAttacks(s, occ)
	}
	return kingAttacks[s]
}

const (
	centre   Bitboard = 0x00003c3c3c3c0000 // c3-f6
	lightSqs Bitboard = 0x55aa55aa55aa55aa
)

// textbookEvaluator is a classic hand-written evaluation, in centipawns from the side to move,
// each positional term a difference mine minus theirs, tapered between
// middlegame and endgame by the game phase (1 with all pieces on, 0 with
// none: knights and bishops count 1, rooks 2, queens 4, out of 24).
var textbookEvaluator = &games.Evaluator{
	Name: "textbook",
	Doc:  "a classic hand-written evaluation: material, centre, mobility, rooks on open files and the seventh, bishop pair, pawn structure, passed pawns, king safety; tapered from middlegame to endgame (centipawns)",
	Features: withMaterial([]games.Feature{
		{Name: "centre-minors", Doc: "knights and bishops on c3-f6", Default: 10, Min: 0, Max: 50, Step: 1},
		{Name: "pawn-advance", Doc: "ranks advanced by pawns beyond their second rank, weighted towards the endgame", Default: 3, Min: 0, Max: 20, Step: 0.5},
		{Name: "mobility-knight", Doc: "squares a knight attacks not held by its side", Default: 4, Min: 0, Max: 15, Step: 0.5},
		{Name: "mobility-bishop", Doc: "squares a bishop attacks not held by its side", Default: 4, Min: 0, Max: 15, Step: 0.5},
		{Name: "mobility-rook", Doc: "squares a rook attacks not held by its side", Default: 2, Min: 0, Max: 15, Step: 0.5},
		{Name: "mobility-queen", Doc: "squares a queen attacks not held by its side", Default: 1, Min: 0, Max: 10, Step: 0.5},
		{Name: "rook-open-file", Doc: "rooks on a file without pawns", Default: 20, Min: 0, Max: 60, Step: 1},
		{Name: "rook-semi-open", Doc: "rooks on a file without pawns of their side", Default: 10, Min: 0, Max: 40, Step: 1},
		{Name: "rook-seventh", Doc: "rooks on the seventh or eighth rank", Default: 20, Min: 0, Max: 60, Step: 1},
		{Name: "bishop-pair", Doc: "1 with two bishops or more", Default: 30, Min: 0, Max: 100, Step: 1},
		{Name: "bad-bishop", Doc: "own pawns on the squares of a bishop's colour, per bishop", Default: -3, Min: -15, Max: 5, Step: 0.5},
		{Name: "doubled-pawns", Doc: "pawns with another pawn of their side ahead on the file", Default: -15, Min: -50, Max: 0, Step: 1},
		{Name: "isolated-pawns", Doc: "pawns with no pawn of their side on the next files", Default: -15, Min: -50, Max: 0, Step: 1},
		{Name: "backward-pawns", Doc: "pawns behind every pawn of their side on the next files", Default: -8, Min: -40, Max: 0, Step: 1},
		{Name: "passed-pawns", Doc: "passed pawns, by rank (5, 10, 20, 35, 60, 100 from the 2nd to the 7th), worth more in the endgame", Default: 1, Min: 0, Max: 3, Step: 0.05},
		{Name: "king-shelter", Doc: "own pawns on the three files around the king, one or two ranks ahead (middlegame)", Default: 10, Min: 0, Max: 40, Step: 1},
		{Name: "castled", Doc: "1 when the king has castled (on g or c file, back rank), -1 when it stands in the centre without the right to castle (middlegame)", Default: 25, Min: 0, Max: 80, Step: 1},
		{Name: "king-activity", Doc: "closeness of the king to the centre (endgame)", Default: 10, Min: 0, Max: 40, Step: 1},
	}),
	Evaluate: evaluateTextbook,
	FeatureValues: func(gp games.Position, dst []float64) {
		var f [23]float64
		gp.(*Position).textbookFeatures(&f)
		copy(dst, f[:])
	},
}

var passedBonus = [8]float64{0, 5, 10, 20, 35, 60, 100, 0}

// phase is 1 in the opening and 0 with no piece but kings and pawns.
func (p *Position) phase() float64 {
	n := 0
	for c := 0; c < 2; c++ {
		n += popcount(p.pieces[c][Knight]|p.pieces[c][Bishop]) + 2*popcount(p.pieces[c][Rook]) + 4*popcount(p.pieces[c][Queen])
	}
	return math.Min(float64(n), 24) / 24
}

func fileMask(f int) Bitboard { return fileA << f }

// adjacentFiles of file f.
func adjacentFiles(f int) Bitboard {
	var m Bitboard
	if f > 0 {
		m |= fileMask(f - 1)
	}
	if f < 7 {
		m |= fileMask(f + 1)
	}
	return m
}

// shieldFront[c][s] is the three files around a king of side c on s, one
// or two ranks ahead of it (side c's pawn structure is pawns.go's).
var shieldFront [2][64]Bitboard

func init() {
	for c := 0; c < 2; c++ {
		for s := 0; s < 64; s++ {
			files := fileMask(s%8) | adjacentFiles(s%8)
			r := s / 8
			for _, d := range []int{1, 2} {
				rr := r + d
				if c == black {
					rr = r - d
				}
				if rr >= 0 && rr < 8 {
					shieldFront[c][s] |= files & (rank1 << (8 * rr))
				}
			}
		}
	}
}

// sideTextbook adds side c's textbook features but mobility's
// (textbookMobility) to f with sign.
func (p *Position) sideTextbook(c int, mg float64, f *[23]float64, sign float64) {
	eg := 1 - mg
	pawns, enemyPawns := p.pieces[c][Pawn], p.pieces[c^1][Pawn]
	f[5] += sign * float64(popcount((p.pieces[c][Knight]|p.pieces[c][Bishop])&centre))
	ps := pawnStructureOf(c, pawns, enemyPawns)
	passed := 0.0
	for b := ps.passed; b != 0; b &= b - 1 {
		passed += passedBonus[relativeRank(c, lsb(b))]
	}
	adv := ps.rankSum - popcount(pawns)
	doubled, isolated, backward := float64(popcount(ps.doubled)), float64(popcount(ps.isolated)), float64(popcount(ps.backward))
	f[6] += sign * float64(adv) * (0.25 + 0.75*eg)
	for b := p.pieces[c][Rook]; b != 0; b &= b - 1 {
		s := lsb(b)
		fm := fileMask(s % 8)
		switch {
		case fm&(pawns|enemyPawns) == 0:
			f[11] += sign
		case fm&pawns == 0:
			f[12] += sign
		}
		if relativeRank(c, s) >= 6 {
			f[13] += sign
		}
	}
	bishops := p.pieces[c][Bishop]
	if popcount(bishops) >= 2 {
		f[14] += sign
	}
	for b := bishops; b != 0; b &= b - 1 {
		colour := lightSqs
		if lightSqs&(1<<lsb(b)) == 0 {
			colour = ^lightSqs
		}
		f[15] += sign * float64(popcount(pawns&colour))
	}
	f[16] += sign * doubled
	f[17] += sign * isolated
	f[18] += sign * backward
	f[19] += sign * passed * (0.5 + 0.5*eg)
	k := p.kingSquare(c)
	kf, kr := k%8, relativeRank(c, k)
	front := shieldFront[c][k]
	f[20] += sign * float64(popcount(front&pawns)) * mg
	castled := 0.0
	if kr == 0 && (kf == 6 || kf == 2 || kf == 1 || kf == 7) {
		castled = 1
	} else if kr == 0 && kf == 4 && p.castling&(uint8(castleWK|castleWQ)<<(2*c)) == 0 {
		castled = -1
	}
	f[21] += sign * castled * mg
	dist := math.Max(math.Abs(float64(kf)-3.5), math.Abs(float64(k/8)-3.5))
	f[22] += sign * (3.5 - dist) * eg
}

func (p *Position) textbookFeatures(f *[23]float64) {
	materialFeatures(p, f[:5])
	mg := p.phase()
	p.sideTextbook(p.turn, mg, f, 1)
	p.sideTextbook(p.turn^1, mg, f, -1)
	p.textbookMobility(p.turn, f, 1)
	p.textbookMobility(p.turn^1, f, -1)
}

// textbookMobility adds side c's mobility features (7 to 10: the squares
// its knights, bishops, rooks and queens attack not held by its side) to f
// with sign; the pst evaluator counts them in its own pass over the
// attacks (pstSums.addAttacks).
func (p *Position) textbookMobility(c int, f *[23]float64, sign float64) {
	occ, own := p.occupied(), p.colors[c]
	for i, k := range [4]int{Knight, Bishop, Rook, Queen} {
		n := 0
		for b := p.pieces[c][k]; b != 0; b &= b - 1 {
			n += popcount(attacks(k, lsb(b), occ) &^ own)
		}
		f[7+i] += sign * float64(n)
	}
}

func evaluateTextbook(gp games.Position, w []float64) int {
	var f [23]float64
	gp.(*Position).textbookFeatures(&f)
	v := 0.0
	for i, x := range f {
		v += w[i] * x
	}
	return int(math.Round(v))
}
