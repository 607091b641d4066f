package chess

import (
	"math"

	"github.com/gametune/gametune/games"
)

// The pst evaluator is the textbook evaluation plus piece-square tables
// fitted from positions: one table per piece kind and one for passed pawns,
// each of shape [2, 64] ([0] the middlegame, [1] the endgame), a square
// counted from its owner's side (a white piece on s reads s, a black piece
// s^56, so both read a1 as their own queen's-rook corner). Each piece of the
// side to move adds phase*mg + (1-phase)*eg of its entries (phase as the
// textbook's: 1 in the opening, 0 with no piece but kings and pawns), each
// of the opponent's subtracts the same; a passed pawn (no enemy pawn ahead
// on its file or the next ones) adds its square's entries of "passed" too.
// Five tables more read counts rather than squares: a knight's, bishop's,
// rook's or queen's mobility table is read at the number of squares it
// attacks that neither hold a piece of its side nor are attacked by an
// enemy pawn (its safe mobility, 0 to 27), and the king-attack table at
// the attack units of a side's knights, bishops, rooks and queens on the
// enemy king's zone (the king's square and those next to it): 2 per
// attacked zone square for a knight or a bishop, 3 for a rook, 5 for a
// queen, at most 39. Two threat tables read, for each attacked piece, its
// least valuable attacker's kind, its own and whether it is defended
// (pst_threats.go). Two king-safety tables read the pawns sheltering and
// storming a side's king and the safe checks it can give (pst_king.go).
// Each table's sum is multiplied by its scale feature.

// pstTableNames are the pst evaluator's tables in the order of Data: the
// piece kinds' in the order of their constants (Pawn ... King), passed
// pawns', the mobility tables of Knight ... Queen, king-attack's, the
// threat tables and the king-safety tables.
var pstTableNames = [pstTables]string{"pawn", "knight", "bishop", "rook", "queen", "king", "passed",
	"knight-mobility", "bishop-mobility", "rook-mobility", "queen-mobility", "king-attack",
	"threats-by-mover", "threats-on-mover", "pawn-shelter", "safe-checks"}

// attackUnits are the king-attack units of one attacked zone square, by
// piece kind.
var attackUnits = [6]int{Knight: 2, Bishop: 2, Rook: 3, Queen: 5}

const (
	pstTables       = 16
	pstPassed       = 6      // the passed-pawn table
	pstMobility     = 7      // Knight's mobility table; kind k's is pstMobility+k-Knight
	pstKingAttack   = 11     // the king-attack table
	maxAttackUnits  = 39     // the king-attack table's last entry
	pstThreatsBy    = 12     // the side to move's threats
	pstThreatsOn    = 13     // the opponent's threats
	pstShelter      = 14     // pawn shelter and storm around the king
	pstChecks       = 15     // safe checks on the enemy king
	pstTableSize    = 2 * 64 // [middlegame, endgame] x square
	pstSize         = pstTables * pstTableSize
	pstScalars      = 23 // textbook's features, first
	pstFeatureCount = pstScalars + pstTables
)

// pstScale is the index of table t's scale feature.
func pstScale(t int) int { return pstScalars + t }

func pstTablesList() []games.Table {
	ts := make([]games.Table, pstTables)
	for t, name := range pstTableNames {
		doc := name + " on each square (counted from its owner's side), middlegame and endgame, in centipawns"
		switch {
		case t == pstThreatsBy || t == pstThreatsOn:
			side := "the side to move's threats on the opponent's pieces (added)"
			if t == pstThreatsOn {
				side = "the opponent's threats on the side to move's pieces (subtracted)"
			}
			doc = side + ": each attacked piece but the king reads entry 10*(its least valuable attacker's kind) + 2*(its kind) + (1 if no piece of its side defends it), kinds P N B R Q K from 0; entries 0 to 59, the rest unused; middlegame and endgame, in centipawns"
		case t == pstShelter:
			doc = "the pawns around a side's king: for each of the three files about it (b..g when the king is on a or h), entry 8*(the file's distance to the edge, 0 to 3) + (the relative rank, 1 to 6, of the side's pawn nearest its first rank among those level with or ahead of the king; 0 none), and 32 more for the enemy pawn nearest, a storming pawn; the rest unused; middlegame and endgame, in centipawns"
		case t == pstChecks:
			doc = "safe checks on the enemy king: for each kind of knight, bishop, rook and queen the side has, entry 16*(kind, knight 0 ... queen 3) + (the squares, at most 15, from which a piece of that kind checks, attacked by one, neither held by the side nor attacked by the enemy); middlegame and endgame, in centipawns"
		case t == pstPassed:
			doc = "passed pawns (no enemy pawn ahead on their file or the next) on each square (counted from their owner's side), middlegame and endgame, in centipawns"
		case t == pstKingAttack:
			doc = "attack units on the enemy king's zone (2 per attacked square for a knight or bishop, 3 for a rook, 5 for a queen; entries 0 to 39, the rest unused), middlegame and endgame, in centipawns"
		case t >= pstMobility:
			doc = "a " + pstTableNames[t-pstMobility+Knight] + "'s safe mobility (squares it attacks without a piece of its side or an enemy pawn's attack; entries 0 to 27, the rest unused), middlegame and endgame, in centipawns"
		}
		ts[t] = games.Table{Name: name, Doc: doc, Shape: []int{2, 64}}
	}
	return ts
}

// pstFeatures are textbook's 23 features, then one scale per table.
func pstFeatures() []games.Feature {
	fs := append([]games.Feature(nil), textbookEvaluator.Features...)
	for _, name := range pstTableNames {
		fs = append(fs, games.Feature{
			Name: name + "-table", Doc: "scale of the " + name + " table (its entries in centipawns, tapered by phase)",
			Default: 1, Min: 0, Max: 4, Step: 0.05, Table: name,
		})
	}
	return fs
}

// pstEvaluator is the pst evaluator with the shipped tables and weights
// (pst_default.go).
var pstEvaluator = shippedPST()

// newPSTEvaluator returns the pst evaluator reading data, of pstSize
// values (the caller checks: games.Evaluator.WithData). Its Scratch weights
// are textbook's defaults and 1 for every scale: with tables of zeros it
// scores exactly as textbook.
func newPSTEvaluator(data []float32) *games.Evaluator {
	tables := (*[pstSize]float32)(data)
	// Tables of zeros add nothing whatever their scales: the evaluation
	// leaves out the king-safety tables' work when both are (as in the
	// shipped file). data does not change once bound (games.WithData).
	king := !allZero(data[pstShelter*pstTableSize : (pstChecks+1)*pstTableSize])
	ev := &games.Evaluator{
		Name:     "pst",
		Doc:      "textbook's evaluation plus piece-square tables (middlegame and endgame, tapered by phase) for each piece kind and for passed pawns, tables of knights', bishops', rooks' and queens' safe mobility by count, of attack units on the enemy king's zone, of threats (by attacker, victim and defence, the side to move's and the opponent's), of the pawns sheltering and storming the king and of safe checks, fitted from self-play positions (centipawns)",
		Features: pstFeatures(),
		Tables:   pstTablesList(),
		Data:     data,
		Pictures: pstPictures,
		PicturesDoc: "Each table as a white piece reads it, rank 8 at the top: its middlegame values beside its endgame values, in centipawns (each entry times its table's scale), added for the side to move's pieces and subtracted for the opponent's, tapered by the phase; " +
			"the mobility tables are drawn as one row by the number of safe squares a piece attacks, king-attack's by the attack units on the enemy king's zone, the threat tables' by attacker and victim (PxN: a pawn attacking a defended knight; PxN!: an undefended one), pawn-shelter's by the file's edge letters and the pawn's rank (shelter ah 2: an own pawn on the second rank of the a or h file; storm de 5: an enemy pawn on the fifth rank, counted from the king's side, of the d or e file; - none), safe-checks' by the kind and the number of safe checks (Q2: two safe queen checks); " +
			"the pieces' material and textbook's terms come on top. Blue raises the score of the piece's side, red lowers it.",
		Bind: newPSTEvaluator,
		Evaluate: func(gp games.Position, w []float64) int {
			return evaluatePST(gp.(*Position), tables, king, w)
		},
		FeatureValues: func(gp games.Position, dst []float64) {
			pstFeatureValues(gp.(*Position), tables, (*[pstFeatureCount]float64)(dst))
		},
		Terms: func(gp games.Position, dst []games.TableTerm) []games.TableTerm {
			return pstTerms(gp.(*Position), dst)
		},
	}
	for _, f := range ev.Features {
		ev.Scratch = append(ev.Scratch, f.Default)
	}
	return ev
}

// pstSums are a position's table sums, the side to move's entries minus the
// opponent's, by table: mg of the middlegame entries, eg of the endgame's.
type pstSums struct {
	mg, eg [pstTables]float64
	att    [2]attackSet // by colour, filled by add
}

// add adds side c's entries to s with sign (+1 or -1): each pawn's, with
// its passed entries when it is passed, then the other pieces', then its
// mobility and king-attack entries, adding textbook's mobility features to
// f on the way (addAttacks).
func (s *pstSums) add(p *Position, c int, data *[pstSize]float32, sign float64, f *[pstScalars]float64) {
	c &= 1
	flip := 56 * c
	own := &p.pieces[c]
	pawn := (*[pstTableSize]float32)(data[Pawn*pstTableSize:])
	passed := (*[pstTableSize]float32)(data[pstPassed*pstTableSize:])
	var mg, eg, pmg, peg float32
	for b := own[Pawn]; b != 0; b &= b - 1 {
		rel := (lsb(b) ^ flip) & 63
		mg += pawn[rel]
		eg += pawn[64+rel]
	}
	for b := passedPawns(c, own[Pawn], p.pieces[c^1][Pawn]); b != 0; b &= b - 1 {
		rel := (lsb(b) ^ flip) & 63
		pmg += passed[rel]
		peg += passed[64+rel]
	}
	s.mg[Pawn] += sign * float64(mg)
	s.eg[Pawn] += sign * float64(eg)
	s.mg[pstPassed] += sign * float64(pmg)
	s.eg[pstPassed] += sign * float64(peg)
	s.att[c][Pawn] = pawnAttackSet(c, own[Pawn])
	s.att[c][King] = kingAttacks[p.kingSquare(c)]
	for k := Knight; k <= King; k++ {
		row := (*[pstTableSize]float32)(data[k*pstTableSize:])
		mg, eg = 0, 0
		for b := own[k]; b != 0; b &= b - 1 {
			sq := (lsb(b) ^ flip) & 63
			mg += row[sq]
			eg += row[64+sq]
		}
		s.mg[k] += sign * float64(mg)
		s.eg[k] += sign * float64(eg)
	}
	s.addAttacks(p, c, data, sign, f)
}

// tables writes the value of each scale feature: mg*(the middlegame sum)
// + (1-mg)*(the endgame sum), mg being p's phase; it completes textbook's
// features f with mobility's.
func (s *pstSums) tables(p *Position, data *[pstSize]float32, king bool, mg float64, values *[pstTables]float64, f *[pstScalars]float64) {
	us, them := p.turn&1, (p.turn^1)&1
	s.add(p, us, data, 1, f)
	s.add(p, them, data, -1, f)
	for c := range s.att {
		a := &s.att[c]
		a[allKinds] = a[Pawn] | a[Knight] | a[Bishop] | a[Rook] | a[Queen] | a[King]
	}
	s.addThreats(p, us, &s.att[us], &s.att[them], pstThreatsBy, data, 1)
	s.addThreats(p, them, &s.att[them], &s.att[us], pstThreatsOn, data, -1)
	if king {
		s.addKing(p, us, &s.att[us], &s.att[them], data, 1)
		s.addKing(p, them, &s.att[them], &s.att[us], data, -1)
	}
	eg := 1 - mg
	for t := range values {
		values[t] = mg*s.mg[t] + eg*s.eg[t]
	}
}

// evaluatePST is textbook's sum, in textbook's order (so that with tables
// of zeros the two agree to the bit), plus each table's value times its
// scale; without king, the king-safety tables are zero and not read.
func evaluatePST(p *Position, data *[pstSize]float32, king bool, w []float64) int {
	ws := (*[pstFeatureCount]float64)(w)
	var f [pstScalars]float64
	mg := p.pstTextbookFeatures(&f)
	var s pstSums
	var t [pstTables]float64
	s.tables(p, data, king, mg, &t, &f)
	v := 0.0
	for i, x := range f {
		v += ws[i] * x
	}
	for i, x := range t {
		v += ws[pstScalars+i] * x
	}
	return int(max(-games.MaxEval, min(games.MaxEval, math.Round(v))))
}

func pstFeatureValues(p *Position, data *[pstSize]float32, dst *[pstFeatureCount]float64) {
	clear(dst[:])
	f := (*[pstScalars]float64)(dst[:pstScalars])
	mg := p.pstTextbookFeatures(f)
	var s pstSums
	s.tables(p, data, true, mg, (*[pstTables]float64)(dst[pstScalars:]), f)
}

// pstTextbookFeatures adds textbook's features but mobility's to f, as
// textbookFeatures does, and returns the phase it tapered them with, which
// the tables share (the phase costs a tenth of the evaluation); the tables'
// pass adds mobility's (pstSums.tables).
func (p *Position) pstTextbookFeatures(f *[pstScalars]float64) (phase float64) {
	materialFeatures(p, f[:5])
	mg := p.phase()
	p.sideTextbook(p.turn, mg, f, 1)
	p.sideTextbook(p.turn^1, mg, f, -1)
	return mg
}

// pstTerms appends p's table entries: for every piece (and every passed
// pawn, again in "passed"), its square's middlegame entry with coefficient
// ±phase and its endgame entry with ±(1-phase), + for the side to move's
// pieces, - for the opponent's; then each side's mobility and king-attack
// entries (pstSums.addAttacks), threat entries and king-safety entries.
func pstTerms(p *Position, dst []games.TableTerm) []games.TableTerm {
	dst = dst[:0]
	mg := p.phase()
	for i, c := range [2]int{p.turn, p.turn ^ 1} {
		sign := float64(1 - 2*i)
		cm, ce := float32(sign*mg), float32(sign*(1-mg))
		flip := 56 * c
		passed := passedPawns(c, p.pieces[c][Pawn], p.pieces[c^1][Pawn])
		for k := Pawn; k <= King; k++ {
			for b := p.pieces[c][k]; b != 0; b &= b - 1 {
				sq := lsb(b)
				dst = appendPST(dst, k, sq^flip, cm, ce)
				if k == Pawn && passed&(1<<sq) != 0 {
					dst = appendPST(dst, pstPassed, sq^flip, cm, ce)
				}
			}
		}
		dst = appendAttackTerms(dst, p, c, cm, ce)
		dst = appendThreatTerms(dst, p, c, pstThreatsBy+i, cm, ce)
		dst = appendKingTerms(dst, p, c, cm, ce)
	}
	return dst
}

// appendPST appends table t's two entries of square (or count) sq.
func appendPST(dst []games.TableTerm, t, sq int, cm, ce float32) []games.TableTerm {
	base, f := int32(t*pstTableSize+sq), int32(pstScale(t))
	return append(dst, games.TableTerm{Entry: base, Feature: f, Coef: cm}, games.TableTerm{Entry: base + 64, Feature: f, Coef: ce})
}

// allZero tells whether every value of v is zero.
func allZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}
