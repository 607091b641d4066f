package weights

import (
	"math"

	"github.com/gametune/gametune/games"
)

// WeightUnit is the weight one unit of a feature's UCI spin option stands
// for, in the uci format and in tune engine's options (protocol/uci).
// UCI spins are integers, so a feature whose step is a whole number is set
// in its own units (pawn 100 is "value 100"), a feature with a fractional
// step in steps (pawn-advance, step 0.5: "value 7" is 3.5), and a continuous
// feature (step 0) in hundredths.
func WeightUnit(f games.Feature) float64 {
	switch {
	case f.Step == 0:
		return 0.01
	case f.Step == math.Trunc(f.Step):
		return 1
	}
	return f.Step
}

// SpinValue is the option value that stands for weight v of feature f, the
// nearest whole number of units (WeightUnit).
func SpinValue(f games.Feature, v float64) int64 {
	return int64(math.Round(v / WeightUnit(f)))
}
