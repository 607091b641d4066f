package uci

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gametune/gametune/games"
)

// WeightUnit is the weight one unit of a feature's spin option stands for.
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

// WeightOption is the spin option of feature f, with v (its weight) as the
// default.
func WeightOption(f games.Feature, v float64) Option {
	u := WeightUnit(f)
	return Option{
		Name:    f.Name,
		Type:    "spin",
		Default: strconv.FormatInt(SpinValue(f, v), 10),
		Min:     int64(math.Ceil(f.Min/u - 1e-9)),
		Max:     int64(math.Floor(f.Max/u + 1e-9)),
	}
}

// SpinValue is the option value that stands for weight v of feature f, the
// nearest whole number of units.
func SpinValue(f games.Feature, v float64) int64 {
	return int64(math.Round(v / WeightUnit(f)))
}

// Weight reads a setoption value for feature f and returns the weight it
// stands for, or an error naming the option's range when it is not a whole
// number within it.
func Weight(f games.Feature, value string) (float64, error) {
	o := WeightOption(f, f.Default)
	n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	if err != nil || n < o.Min || n > o.Max {
		return 0, fmt.Errorf("uci: option %s value %q: want an integer from %d to %d (units of %g)", f.Name, value, o.Min, o.Max, WeightUnit(f))
	}
	w := float64(n) * WeightUnit(f)
	if u := WeightUnit(f); u != 1 {
		// 7 * 0.1 is 0.7000000000000001: round to the unit's decimals.
		w, _ = strconv.ParseFloat(strconv.FormatFloat(w, 'f', decimals(u), 64), 64)
	}
	return min(max(w, f.Min), f.Max), nil
}

// decimals counts the decimal places of a unit such as 0.25 or 0.05.
func decimals(u float64) int {
	for d := 0; d < 12; d++ {
		if s := u * math.Pow10(d); math.Abs(s-math.Round(s)) < 1e-9 {
			return d
		}
	}
	return 12
}

// ParamOption is the option of an engine's setting p: a spin with its
// range, or a check (true for 1) when p.Check.
func ParamOption(p games.Param) Option {
	if p.Check {
		return Option{Name: p.Name, Type: "check", Default: strconv.FormatBool(p.Value != 0)}
	}
	return Option{Name: p.Name, Type: "spin", Default: strconv.Itoa(p.Value), Min: int64(p.Min), Max: int64(p.Max)}
}

// ParamValue reads a setoption value for setting p: true or false for a
// check, a whole number within its range for a spin; the error names the
// option and what it accepts.
func ParamValue(p games.Param, value string) (int, error) {
	value = strings.TrimSpace(value)
	if p.Check {
		switch strings.ToLower(value) {
		case "true":
			return 1, nil
		case "false":
			return 0, nil
		}
		return 0, fmt.Errorf("uci: option %s value %q: want true or false", p.Name, value)
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < p.Min || n > p.Max {
		return 0, fmt.Errorf("uci: option %s value %q: want an integer from %d to %d", p.Name, value, p.Min, p.Max)
	}
	return n, nil
}
