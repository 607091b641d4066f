package population

import "math"

// eloOf returns the score and the Elo difference with its 95% interval for
// a record of wins, draws and losses. (Replaced by tournament/stats once it
// lands.)
func eloOf(w, d, l int) (score, elo, lo, hi float64) {
	n := float64(w + d + l)
	if n == 0 {
		return 0.5, 0, math.Inf(-1), math.Inf(1)
	}
	score = (float64(w) + float64(d)/2) / n
	variance := (float64(w)*math.Pow(1-score, 2) + float64(d)*math.Pow(0.5-score, 2) + float64(l)*math.Pow(score, 2)) / n
	se := math.Sqrt(variance / n)
	toElo := func(s float64) float64 {
		if s <= 0 {
			return math.Inf(-1)
		}
		if s >= 1 {
			return math.Inf(1)
		}
		return -400 * math.Log10(1/s-1)
	}
	return score, toElo(score), toElo(score - 1.959963984540054*se), toElo(score + 1.959963984540054*se)
}
