package learn

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// Summary is what `tune learn` prints: the rounds and the file written
// (the run's state file when it was interrupted: Finish).
type Summary struct {
	Game        string  `json:"game"`
	Evaluator   string  `json:"evaluator"`
	Output      string  `json:"output"`
	Interrupted bool    `json:"interrupted,omitempty"`
	Played      int     `json:"played"`
	Accepted    int     `json:"accepted"`
	Rounds      []Round `json:"rounds"`
}

// NewSummary sums up res, the weights of which were written to output;
// interrupted tells a run that was interrupted (its weights so far in
// output, its state file).
func NewSummary(res *Result, game, evaluator, output string, interrupted bool) Summary {
	s := Summary{Game: game, Evaluator: evaluator, Output: output, Interrupted: interrupted, Played: res.Played, Rounds: res.Rounds}
	for _, r := range res.Rounds {
		if r.Accepted {
			s.Accepted++
		}
	}
	return s
}

// Kept is how a round's verdict is written: "kept" or "rejected".
func Kept(accepted bool) string {
	if accepted {
		return "kept"
	}
	return "rejected"
}

// LogLine is a round in one line, as `tune learn` logs it.
func (r Round) LogLine() string {
	return fmt.Sprintf("learn: round %d: %d self-play games, %d positions, gate %s over %d pairs: %s (%s)",
		r.Round, r.SelfPlay, r.Positions, r.GateElo, r.GatePairs, Kept(r.Accepted), r.Elapsed.Round(time.Millisecond))
}

// LogLine is a round's progress in one line, as `tune learn` logs it.
func (p Progress) LogLine() string {
	elapsed := p.Elapsed.Round(time.Second)
	switch p.Stage {
	case "self-play":
		return fmt.Sprintf("learn: round %d: self-play %d/%d games (%s)", p.Round, p.Done, p.Total, elapsed)
	case "fit":
		return fmt.Sprintf("learn: round %d: fitting %d positions (%s)", p.Round, p.Total, elapsed)
	case "fit epoch":
		return fmt.Sprintf("learn: round %d: fit epoch %d/%d done (%s)", p.Round, p.Done, p.Total, elapsed)
	}
	return fmt.Sprintf("learn: round %d: %s of at most %d games (%s)", p.Round, p.Stage, p.Total, elapsed)
}

// WriteTable prints the rounds as a table and a closing line.
func (s Summary) WriteTable(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "round\tself-play\tgames\tpositions\tK\ttrain loss\theld-out loss\tgate Elo [95%]\tpairs\tLLR\tresult\ttime\t")
	for _, r := range s.Rounds {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.4g\t%.4f\t%.4f\t%s\t%d\t%.2f\t%s\t%s\t\n", r.Round, r.SelfPlay, r.Games, r.Positions,
			r.K, r.TrainLoss, r.HeldOut, r.GateElo, r.GatePairs, r.LLR, Kept(r.Accepted), r.Elapsed.Round(time.Millisecond))
	}
	tw.Flush()
	if s.Interrupted {
		fmt.Fprintf(w, "interrupted: %d games played, %d of %d rounds kept; the %s %s weights so far are in %s: run the same command again to go on\n",
			s.Played, s.Accepted, len(s.Rounds), s.Game, s.Evaluator, s.Output)
		return
	}
	fmt.Fprintf(w, "%d games played, %d of %d rounds kept; %s %s weights written to %s\n",
		s.Played, s.Accepted, len(s.Rounds), s.Game, s.Evaluator, s.Output)
}
