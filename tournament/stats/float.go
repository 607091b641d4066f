package stats

import (
	"encoding/json"
	"math"
)

// Float is a number in JSON output that may be infinite or undefined (an
// Elo bound after a clean sweep, an Elo not measured yet): those are
// written as null, which JSON can hold, instead of failing the encoding or
// standing in a sentinel number. Negative zero is written as 0.
type Float float64

// MarshalJSON writes null for NaN and the infinities, else the number.
func (f Float) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return []byte("null"), nil
	}
	return json.Marshal(x + 0) // + 0: no "-0"
}
