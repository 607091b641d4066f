package stats

import (
	"math"
	"testing"
)

// TestGoldenMin finds known minima: of (x-2)^2 on [0, 5], of cosh(x-0.3)
// on [-4, 4], and the end point of a function decreasing over the range.
func TestGoldenMin(t *testing.T) {
	for _, c := range []struct {
		fn         func(float64) float64
		a, b, want float64
	}{
		{func(x float64) float64 { return (x - 2) * (x - 2) }, 0, 5, 2},
		{func(x float64) float64 { return math.Cosh(x - 0.3) }, -4, 4, 0.3},
		{func(x float64) float64 { return -x }, 0, 1, 1},
	} {
		if got := GoldenMin(c.fn, c.a, c.b, 1e-7); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("minimum on [%v, %v]: %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
