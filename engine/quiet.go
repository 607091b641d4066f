package engine

import (
	"math"

	"github.com/gametune/gametune/games"
)

// QuietLeaf runs the quiescence search the engine runs below its horizon
// (stand pat on the static evaluation, then the game's noisy moves, in the
// game's order; without the quiet checks and check evasions a Search adds
// in a games.QuietChecker: a leaf is where the captures end) from p with
// evaluator ev and weights w, and finds its leaf: it appends to leaf the
// moves from p to the position whose static evaluation the search backs
// up, none when p is quiet or standing pat is best; where several lines
// give that score, the first in the order of the noisy moves. It returns them with the search's score, from the side to
// move's point of view. p is returned unchanged. Once the searcher's
// buffers have grown it allocates nothing but leaf's growth.
func (s *Searcher) QuietLeaf(p games.Position, ev *games.Evaluator, w []float64, leaf []games.Move) ([]games.Move, int) {
	s.pos, s.ev, s.w, s.quietChecker, s.repeater = p, ev, w, nil, nil // a leaf is where the captures end: none repeats
	s.sel.on, s.sel.exchanger = false, nil                            // nor is any capture pruned
	s.newEvals()
	s.stats = Stats{Nodes: 1}
	s.nodeLimit, s.stop, s.done = math.MaxInt64, false, nil
	root := s.quiesce(0, 0, -infinity, infinity)
	base := len(leaf)
	for ply, score := 0, root; ply < MaxPly && score > s.evaluate(); ply, score = ply+1, -score {
		m, ok := s.quietMove(ply, score)
		if !ok {
			break
		}
		leaf = append(leaf, m)
	}
	for range leaf[base:] {
		p.Undo()
	}
	return leaf, int(root)
}

// quietMove plays the first noisy move at ply whose quiescence value is
// score (a null-window search tells), and returns it.
func (s *Searcher) quietMove(ply int, score int32) (games.Move, bool) {
	noisy := s.pos.Noisy(s.moves[ply][:0])
	s.moves[ply] = noisy[:0]
	for _, m := range noisy {
		s.pos.Play(m)
		if -s.quiesce(ply+1, 1, -score, -score+1) >= score {
			return m, true
		}
		s.pos.Undo()
	}
	return games.NoMove, false
}
