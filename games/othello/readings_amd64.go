//go:build !purego

package othello

// read sets r to the readings of own and opp (the discs of the side to
// move and of its opponent): readGo's, the rows of halfTables added 16
// bytes at a time (readings_amd64.s).
func (r *halfReadings) read(own, opp uint64) {
	readHalves(halfTables, own, opp, uint64(transpose(Bitboard(own))), uint64(transpose(Bitboard(opp))), r)
}

// readHalves writes the readings of own and opp into r, with ownT and
// oppT their transposes, from the tables t (halfTables).
//
//go:noescape
func readHalves(t *[4][256][8]uint64, own, opp, ownT, oppT uint64, r *halfReadings)

// updateReadings is updateReadingsGo, the readings kept in registers.
//
//go:noescape
func updateReadings(t *[64]halfReadings, base *halfReadings, once, twice, minus uint64, out *halfReadings)
