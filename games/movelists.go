package games

// MoveLists lends move lists, one a ply, to recursive move counters (a
// game's Perft) that may run in several goroutines at once. Unlike a
// sync.Pool, the garbage collector never empties it, so that a counter in
// steady state allocates nothing, however long it runs.
type MoveLists struct {
	free chan *[][]Move
	size int
}

// NewMoveLists returns lists of capacity size (the most moves a position of
// the game has), holding up to 64 sets between uses.
func NewMoveLists(size int) *MoveLists {
	return &MoveLists{free: make(chan *[][]Move, 64), size: size}
}

// Get returns lists for the plies 0 to depth.
func (m *MoveLists) Get(depth int) *[][]Move {
	var l *[][]Move
	select {
	case l = <-m.free:
	default:
		l = new([][]Move)
	}
	for len(*l) <= depth {
		*l = append(*l, make([]Move, 0, m.size))
	}
	return l
}

// Put gives lists back for another Get.
func (m *MoveLists) Put(l *[][]Move) {
	select {
	case m.free <- l:
	default: // 64 sets held already
	}
}
