package results

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gametune/gametune/population"
	"github.com/gametune/gametune/tournament/stats"
)

// verificationSchema is the verification's table (one row), added by
// schema version 3.
const verificationSchema = `
CREATE TABLE verification (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	best TEXT NOT NULL, best_genome INTEGER NOT NULL, reference TEXT NOT NULL, reference_genome INTEGER NOT NULL,
	depth INTEGER NOT NULL, nodes INTEGER NOT NULL,
	elo0 REAL NOT NULL, elo1 REAL NOT NULL, alpha REAL NOT NULL, beta REAL NOT NULL, model TEXT NOT NULL,
	max_pairs INTEGER NOT NULL, pairs INTEGER NOT NULL, played INTEGER NOT NULL, pentanomial TEXT NOT NULL,
	wins INTEGER NOT NULL, draws INTEGER NOT NULL, losses INTEGER NOT NULL,
	llr REAL NOT NULL, status TEXT NOT NULL, elo TEXT NOT NULL, elo_low TEXT NOT NULL, elo_high TEXT NOT NULL
);
`

// statusWords are the verification's SPRT statuses as stored.
var statusWords = map[stats.Status]string{stats.AcceptH1: "H1", stats.AcceptH0: "H0", stats.Continue: "inconclusive"}

// RecordVerification records the run's verification, replacing any earlier
// one.
func (r *Run) RecordVerification(v population.Verification) error {
	_, err := r.db.Exec(`INSERT OR REPLACE INTO verification (id, best, best_genome, reference, reference_genome, depth, nodes,
		elo0, elo1, alpha, beta, model, max_pairs, pairs, played, pentanomial, wins, draws, losses, llr, status, elo, elo_low, elo_high)
		VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.Best, v.BestGenome, v.Reference, v.ReferenceGenome, v.Depth, v.Nodes,
		v.SPRT.Elo0, v.SPRT.Elo1, v.SPRT.Alpha, v.SPRT.Beta, v.SPRT.Model.String(),
		v.MaxPairs, v.Pairs, v.Played, jsonText(v.Pentanomial), v.Wins, v.Draws, v.Losses,
		v.LLR, statusWords[v.Status], floatText(v.Elo), floatText(v.Low), floatText(v.High))
	return wrap(err)
}

// Verification reads the run's verification: nil when it has none (a run
// not verified, or recorded before verification existed).
func (r *Run) Verification() (*population.Verification, error) {
	if r.version < 3 {
		return nil, nil
	}
	var v population.Verification
	var model, penta, status, elo, lo, hi string
	err := r.db.QueryRow(`SELECT best, best_genome, reference, reference_genome, depth, nodes, elo0, elo1, alpha, beta, model,
		max_pairs, pairs, played, pentanomial, wins, draws, losses, llr, status, elo, elo_low, elo_high FROM verification WHERE id = 1`).
		Scan(&v.Best, &v.BestGenome, &v.Reference, &v.ReferenceGenome, &v.Depth, &v.Nodes, &v.SPRT.Elo0, &v.SPRT.Elo1, &v.SPRT.Alpha, &v.SPRT.Beta, &model,
			&v.MaxPairs, &v.Pairs, &v.Played, &penta, &v.Wins, &v.Draws, &v.Losses, &v.LLR, &status, &elo, &lo, &hi)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, wrap(err)
	}
	if model == stats.Logistic.String() {
		v.SPRT.Model = stats.Logistic
	}
	known := false
	for s, word := range statusWords {
		if word == status {
			v.Status, known = s, true
		}
	}
	if err := json.Unmarshal([]byte(penta), &v.Pentanomial); err != nil || !known {
		return nil, fmt.Errorf("%w: the verification's pentanomial %q or status %q does not read", ErrDamaged, penta, status)
	}
	v.Elo, v.Low, v.High = parseFloatText(elo), parseFloatText(lo), parseFloatText(hi)
	return &v, nil
}

// VerificationJSON is a run's verification (population.Verification): its
// best against the reference at a deeper search, from the best's side.
type VerificationJSON struct {
	Best      string `json:"best"`
	Reference string `json:"reference"`
	Depth     int    `json:"depth"` // 0: no depth limit
	Nodes     int64  `json:"nodes"` // 0: no node limit
	// Verdict is "held" (kept by the one rule, stats.Kept: H1 accepted,
	// or the cap reached with the interval above 0), "not held" (H0
	// accepted) or "inconclusive" (the cap came first, the interval
	// reaching 0); Status the SPRT's words.
	Verdict     string            `json:"verdict"`
	Status      string            `json:"status"`
	Elo0        float64           `json:"elo0"`
	Elo1        float64           `json:"elo1"`
	Alpha       float64           `json:"alpha"`
	Beta        float64           `json:"beta"`
	Model       string            `json:"model"`
	LLR         float64           `json:"llr"`
	LLRLow      float64           `json:"llr_lower_bound"`
	LLRHigh     float64           `json:"llr_upper_bound"`
	Pairs       int               `json:"pairs"`     // counted by the test
	MaxPairs    int               `json:"max_pairs"` // the cap
	Played      int               `json:"games_played"`
	Pentanomial stats.Pentanomial `json:"pentanomial"`
	stats.WDL
	Elo     stats.Float `json:"elo"` // logistic, over the reference
	Low     stats.Float `json:"elo_low"`
	High    stats.Float `json:"elo_high"`
	Summary string      `json:"summary"`
}

// VerificationJSON returns the run's verification; nil when it has none.
func (v *View) VerificationJSON() *VerificationJSON {
	x := v.Verification
	if x == nil {
		return nil
	}
	lo, hi := x.SPRT.Bounds()
	return &VerificationJSON{Best: x.Best, Reference: x.Reference, Depth: x.Depth, Nodes: x.Nodes, Verdict: x.Verdict(), Status: x.Status.String(),
		Elo0: x.SPRT.Elo0, Elo1: x.SPRT.Elo1, Alpha: x.SPRT.Alpha, Beta: x.SPRT.Beta, Model: x.SPRT.Model.String(),
		LLR: x.LLR, LLRLow: lo, LLRHigh: hi, Pairs: x.Pairs, MaxPairs: x.MaxPairs, Played: x.Played, Pentanomial: x.Pentanomial, WDL: x.WDL,
		Elo: stats.Float(x.Elo), Low: stats.Float(x.Low), High: stats.Float(x.High), Summary: x.Summary()}
}

// verifiedBest is the verdict of the verification of the view's best ("" when
// that best was not verified: none was, or another genome was).
func (v *View) verifiedBest() string {
	x := v.Verification
	if x == nil || !v.Best.Confident || x.Best != v.Best.Label || x.BestGenome != v.Best.Genome {
		return ""
	}
	return x.Verdict()
}
