//go:build !amd64 || purego

package othello

// read sets r to the readings of own and opp (the discs of the side to
// move and of its opponent).
func (r *halfReadings) read(own, opp uint64) { r.readGo(own, opp) }

// updateReadings: updateReadingsGo.
func updateReadings(t *[64]halfReadings, base *halfReadings, once, twice, minus uint64, out *halfReadings) {
	updateReadingsGo(t, base, once, twice, minus, out)
}
