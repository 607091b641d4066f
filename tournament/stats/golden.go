package stats

import "math"

// GoldenMin returns the minimum of fn over [a, b] to within tol, by
// golden-section search (fn assumed unimodal there): Texel's fits use it
// to fit K on a logarithmic scale.
func GoldenMin(fn func(float64) float64, a, b, tol float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	c, d := b-r*(b-a), a+r*(b-a)
	fc, fd := fn(c), fn(d)
	for b-a > tol {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - r*(b-a)
			fc = fn(c)
		} else {
			a, c, fc = c, d, fd
			d = a + r*(b-a)
			fd = fn(d)
		}
	}
	return (a + b) / 2
}
