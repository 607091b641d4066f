package population

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Bounds of a parameter line (ParseSPSAParams, EngineEvaluator): start,
// min and max within ±MaxParamValue, the largest 32-bit integer (most
// engines hold a spin option in a C int, and a float64 keeps every whole
// number of that size exactly, in the store and in a setoption line);
// c_end from MinParamCEnd to the range max - min (a step beyond the range
// only pushes both sides to its ends; below MinParamCEnd, c_k^2 could
// vanish in floating point and R_k = a_k / c_k^2 with it); r_end greater
// than 0 and at most MaxParamREnd, as spsa-r-end.
const (
	MaxParamValue = 1<<31 - 1
	MinParamCEnd  = 1e-9
	MaxParamREnd  = 1e6
)

// paramForms names the forms of a parameter line, for error messages.
const paramForms = "'name, int|float, start, min, max, c_end, r_end' (OpenBench) or 'name,start,min,max,c_end,r_end' (fishtest, as Stockfish's TUNE() prints it)"

// paramLine is one parameter line read and checked against the bounds.
type paramLine struct {
	name                        string
	isInt                       bool
	start, min, max, cEnd, rEnd float64
}

// parseParamLine reads one parameter line in either form: OpenBench's 7
// fields "name, int|float, start, min, max, c_end, r_end", or fishtest's
// 6 fields "name,start,min,max,c_end,r_end", which Stockfish's TUNE()
// prints. A fishtest line is an int parameter: fishtest's worker rounds
// every value it sets on the engine to a whole number (stochastically,
// math.floor(value + random.uniform(0, 1)) in worker/games.py), whatever
// the numbers of the line look like, so an int parameter is what it
// tunes. Spaces around fields are ignored. The error names the field that
// is wrong and what is accepted; the caller adds the line.
func parseParamLine(line string) (paramLine, error) {
	fields := strings.Split(line, ",")
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	var p paramLine
	var nums []string
	switch len(fields) {
	case 7:
		switch fields[1] {
		case "int":
			p.isInt = true
		case "float":
		default:
			return p, fmt.Errorf("%s: type %q: want int or float (lines are %s)", fields[0], fields[1], paramForms)
		}
		nums = fields[2:]
	case 6:
		p.isInt = true
		nums = fields[1:]
	default:
		return p, fmt.Errorf("%d fields; want 7 or 6: %s", len(fields), paramForms)
	}
	p.name = fields[0]
	if p.name == "" {
		return p, fmt.Errorf("no name before the first comma (lines are %s)", paramForms)
	}
	if i := strings.IndexFunc(p.name, unicode.IsControl); i >= 0 {
		return p, fmt.Errorf("name %q holds a control character", p.name)
	}
	var v [5]float64
	for i, field := range []string{"start", "min", "max", "c_end", "r_end"} {
		x, err := strconv.ParseFloat(nums[i], 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			hint := ""
			if len(fields) == 6 && i == 0 {
				hint = " (lines are " + paramForms + ")"
			}
			return p, fmt.Errorf("%s: %s %q is not a finite number%s", p.name, field, nums[i], hint)
		}
		v[i] = x
	}
	p.start, p.min, p.max, p.cEnd, p.rEnd = v[0], v[1], v[2], v[3], v[4]
	for i, field := range []string{"start", "min", "max"} {
		if math.Abs(v[i]) > MaxParamValue {
			return p, fmt.Errorf("%s: %s %g is out of bounds: values go from %d to %d", p.name, field, v[i], -MaxParamValue, MaxParamValue)
		}
	}
	switch {
	case p.min > p.max:
		return p, fmt.Errorf("%s: min %g > max %g (min must be less than max)", p.name, p.min, p.max)
	case p.min == p.max:
		return p, fmt.Errorf("%s: min %g = max %g leaves nothing to tune (min must be less than max)", p.name, p.min, p.max)
	case p.start < p.min || p.start > p.max:
		return p, fmt.Errorf("%s: start %g is outside [%g, %g]", p.name, p.start, p.min, p.max)
	case p.cEnd <= 0:
		return p, fmt.Errorf("%s: c_end %g must be > 0: want a number from %g to the range max - min (%g)", p.name, p.cEnd, MinParamCEnd, p.max-p.min)
	case p.cEnd < MinParamCEnd || p.cEnd > p.max-p.min:
		return p, fmt.Errorf("%s: c_end %g: want a number from %g to the range max - min (%g)", p.name, p.cEnd, MinParamCEnd, p.max-p.min)
	case !(p.rEnd > 0 && p.rEnd <= MaxParamREnd):
		return p, fmt.Errorf("%s: r_end %g: want a number greater than 0 and at most %g", p.name, p.rEnd, float64(MaxParamREnd))
	}
	return p, nil
}

// paramLines calls f with the number (from 1) and the text of each
// parameter line of lines, blank lines and lines starting with # skipped.
func paramLines(lines []string, f func(n int, line string) error) error {
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := f(i+1, line); err != nil {
			return err
		}
	}
	return nil
}
