package engine

import "fmt"

// The bounds of a search, one rule for every command, config and job that
// asks for one.
const (
	MaxDepth    = MaxPly / 2 // plies of full-width search: quiescence and extensions need the rest of MaxPly
	MaxNodes    = 1 << 40    // nodes per move: days of search
	MaxTableMiB = 1 << 16    // a searcher's transposition table
)

// Check reports whether l is a search that ends and stays in bounds: depth
// 0 to MaxDepth, nodes 0 to MaxNodes, and at least one of them set. Its
// message says what is accepted.
func (l Limits) Check() error {
	if l.Depth < 0 || l.Depth > MaxDepth {
		return fmt.Errorf("depth %d: want 1 to %d plies (or 0 with a node limit for no depth limit)", l.Depth, MaxDepth)
	}
	if l.Nodes < 0 || l.Nodes > MaxNodes {
		return fmt.Errorf("nodes %d: want 1 to %d (or 0 for no node limit)", l.Nodes, int64(MaxNodes))
	}
	if l.Depth == 0 && l.Nodes == 0 {
		return ErrNoLimit
	}
	return nil
}
