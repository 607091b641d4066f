package learn

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/gametune/gametune/games"
)

// DefaultK is the K of a fit whose starting weights carry no signal (all
// tables zero and the scalars saying nothing, or a loss that K cannot
// lower): sigmoid(e/200), so that with evaluations in tenths of a disc the
// tables learn in tenths of a disc (a 20-disc lead is a 73% win).
const DefaultK = 1.0 / 200

// defaultRate is FitOptions.Rate's default.
const defaultRate = 0.5

// TableBound bounds the magnitude of a fitted table entry: the bound every
// weights file keeps (games.MaxTableValue), so that the fit's tables are
// written and read back whole.
const TableBound = games.MaxTableValue

// FitOptions sets up Fit. The zero value of each field means its default.
type FitOptions struct {
	// Epochs is the number of passes over the training positions; 0 means 10.
	Epochs int
	// BatchSize is the positions of one Adam step; 0 means 16384. A batch
	// is cut into shards of 1024 positions whatever the number of workers.
	BatchSize int
	// Rate is Adam's step, in units of the evaluation (tenths of a disc for
	// Othello); 0 means 0.5. A scalar weight moves by its feature's Step
	// at 0.5, scaled likewise.
	Rate float64
	// L2 weighs the squares of the table entries: a batch's gradient of an
	// entry it touches is the mean of its positions' gradients plus
	// 2*L2*entry (entries a batch does not touch are not decayed). 0 means
	// none; typical values are 1e-9 to 1e-6.
	L2 float64
	// K is the logistic's scale: the predicted score of a position of
	// evaluation e is sigmoid(K*e). 0 means fit K first, for the starting
	// weights, by a golden-section search minimising the loss over about
	// 262,144 training positions (DefaultK when they carry no signal).
	K float64
	// HeldOut is the share of games never trained on, chosen by a hash of
	// the seed and the game's index; their loss is reported every epoch.
	// 0 means 0.1; a negative value keeps none.
	HeldOut float64
	// Workers is the number of goroutines; 0 means all cores.
	Workers int
	// MemoryMiB caps the memory of the position cache; 0 means 6144 (6 GiB:
	// about 30 million Othello positions at 212 bytes each). When
	// the positions would not fit, each epoch replays the games instead.
	MemoryMiB int
	// Seed decides the held-out games and the order of the positions.
	Seed uint64
	// Tables, when not empty, names the only tables the fit moves: the
	// other tables' entries (within TableBound, as every fit clamps them)
	// and the scalar weights keep their starting values. It fits new tables on top of learned ones from fewer
	// positions than a fit of everything would need.
	Tables []string
	// Progress, when set, is called after each epoch.
	Progress func(FitEpoch)
}

// FitEpoch is the report of one epoch. TrainLoss is the mean loss of the
// epoch's training positions, each measured by its batch before the batch's
// step; HeldOutLoss is measured after the epoch (0 without held-out games).
// Losses are Texel's mean squared error, without the L2 term.
type FitEpoch struct {
	Epoch                  int
	TrainLoss, HeldOutLoss float64
	Positions              int
	Elapsed                time.Duration // since Fit started
}

// FitResult is what Fit learned: Data for ev.WithData, Weights (the
// scalars fitted, the scales as given) for ev.Check and the evaluator.
type FitResult struct {
	Data    []float32
	Weights []float64
	K       float64
	// StartHeldOut and HeldOutLoss are the held-out loss of the starting
	// and of the fitted weights.
	StartHeldOut, HeldOutLoss float64
	Epochs                    []FitEpoch
	// Positions and HeldOutPositions count the positions trained on per
	// epoch and held out.
	Positions, HeldOutPositions int
	// Cached tells whether the positions were held in memory (else each
	// epoch replayed the games); BytesPerPosition is the cache's cost.
	Cached           bool
	BytesPerPosition float64
	// Memory is the bytes the fit held at its peak: the cache, the order of
	// the positions, Adam's state and each worker's accumulators.
	Memory int64
	// Prepare is the time spent caching the positions and fitting K.
	Prepare time.Duration
}

// Fit learns the table entries of ev (starting from ev.Data) and its
// scalar weights (features with Table == "", starting from w) from the
// positions of set, by mini-batch Adam on Texel's loss: the mean of
// (sigmoid(K*e) - label)^2, e being the evaluation before rounding. The
// scales (features with a Table) are held at their values in w: the
// gradient of an entry is w[Feature]*Coef*dLoss/de. Updates are sparse:
// a step touches only the entries its batch activates. Positions where the
// side to move must pass (games.Passer) are skipped: their evaluation
// describes a side that does not move. The result is the same for a seed
// whatever the number of workers. Cancelled during its epochs, Fit returns
// the weights reached so far with ctx.Err(); before, only ctx.Err().
func Fit(ctx context.Context, ev *games.Evaluator, w []float64, set *Set, opts FitOptions) (FitResult, error) {
	start := time.Now()
	f, err := newFitter(ev, w, set, opts)
	if err != nil {
		return FitResult{}, err
	}
	if err := f.prepare(ctx); err != nil {
		return FitResult{}, err
	}
	res := FitResult{K: f.k, Cached: f.cached, Prepare: time.Since(start)}
	res.StartHeldOut, res.HeldOutPositions, err = f.heldOutLoss(ctx)
	if err != nil {
		return FitResult{}, err
	}
	res.BytesPerPosition = f.bytesPerPosition()
	res.HeldOutLoss = res.StartHeldOut
	for epoch := 1; epoch <= f.opts.Epochs; epoch++ {
		loss, n, err := f.epoch(ctx, epoch)
		if err == nil {
			var held float64
			held, _, err = f.heldOutLoss(ctx)
			res.HeldOutLoss = held
		}
		if err != nil {
			return f.result(res), err
		}
		e := FitEpoch{Epoch: epoch, TrainLoss: loss, HeldOutLoss: res.HeldOutLoss, Positions: n, Elapsed: time.Since(start)}
		res.Epochs = append(res.Epochs, e)
		res.Positions = n
		if f.opts.Progress != nil {
			f.opts.Progress(e)
		}
	}
	return f.result(res), nil
}

func (f *fitter) result(res FitResult) FitResult {
	res.Memory = f.memory()
	res.Data = append([]float32(nil), f.data...)
	res.Weights = append([]float64(nil), f.w...)
	return res
}

// checkFit verifies Fit's inputs and fills in the options' defaults.
func checkFit(ev *games.Evaluator, w []float64, set *Set, opts *FitOptions) error {
	switch {
	case ev == nil:
		return fmt.Errorf("learn: no evaluator to fit")
	case ev.Terms == nil || ev.Bind == nil || len(ev.Data) != ev.TablesSize() || len(ev.Data) == 0:
		return fmt.Errorf("learn: evaluator %q has no tables to fit (a fit needs Tables, Data, Terms and Bind)", ev.Name)
	case len(ev.Data) >= math.MaxInt32:
		return fmt.Errorf("learn: evaluator %q has %d table values; a fit takes fewer than 2^31", ev.Name, len(ev.Data))
	case len(ev.Features) > math.MaxUint16:
		return fmt.Errorf("learn: evaluator %q has %d features; a fit takes at most 65535", ev.Name, len(ev.Features))
	case set == nil || set.Game == nil || len(set.Games) == 0:
		return fmt.Errorf("learn: no games to fit on")
	}
	if err := ev.Check(w); err != nil {
		return fmt.Errorf("learn: starting weights: %w", err)
	}
	if ev.FeatureValues == nil {
		for i := range ev.Features {
			if !ev.IsScale(i) {
				return fmt.Errorf("learn: evaluator %q has scalars but no FeatureValues to read them", ev.Name)
			}
		}
	}
	return fitDefaults(opts)
}

// fitMask returns which of ev's table entries stay fixed in a fit that
// moves only the named tables: nil when names is empty (all move).
func fitMask(ev *games.Evaluator, names []string) ([]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	fixed := make([]bool, ev.TablesSize())
	for i := range fixed {
		fixed[i] = true
	}
	for _, name := range names {
		off, t := ev.TableOffset(name)
		if off < 0 {
			all := make([]string, len(ev.Tables))
			for i, t := range ev.Tables {
				all[i] = t.Name
			}
			return nil, fmt.Errorf("learn: evaluator %q has no table %q to fit (its tables: %s)", ev.Name, name, strings.Join(all, ", "))
		}
		clear(fixed[off : off+t.Size()])
	}
	return fixed, nil
}

func fitDefaults(o *FitOptions) error {
	bad := func(name string, v any, want string) error {
		return fmt.Errorf("learn: fit option %s is %v (%s)", name, v, want)
	}
	switch {
	case o.Epochs < 0:
		return bad("Epochs", o.Epochs, "0 for 10, or more")
	case o.BatchSize < 0:
		return bad("BatchSize", o.BatchSize, "0 for 16384, or more")
	case !(o.Rate >= 0) || math.IsInf(o.Rate, 0):
		return bad("Rate", o.Rate, "0 for 0.5, or a positive number")
	case !(o.L2 >= 0) || math.IsInf(o.L2, 0):
		return bad("L2", o.L2, "0 or a positive number")
	case !(o.K >= 0) || math.IsInf(o.K, 0):
		return bad("K", o.K, "0 to fit it, or a positive number")
	case math.IsNaN(o.HeldOut) || o.HeldOut >= 1:
		return bad("HeldOut", o.HeldOut, "a share below 1; 0 for 0.1, negative for none")
	case o.Workers < 0:
		return bad("Workers", o.Workers, "0 for all cores, or more")
	case o.MemoryMiB < 0:
		return bad("MemoryMiB", o.MemoryMiB, "0 for 6144, or more")
	}
	o.Epochs = cmp.Or(o.Epochs, 10)
	o.BatchSize = cmp.Or(o.BatchSize, 16384)
	o.Rate = cmp.Or(o.Rate, defaultRate)
	o.HeldOut = cmp.Or(o.HeldOut, 0.1)
	o.Workers = cmp.Or(o.Workers, runtime.NumCPU())
	o.MemoryMiB = cmp.Or(o.MemoryMiB, 6144)
	return nil
}
