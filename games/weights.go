package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// WeightsFile is the JSON form of one evaluator's weights, the file that
// every --weights flag reads and `tune export --format json` writes:
//
//	{"game": "othello", "evaluator": "full", "weights": {"corners": 2.5, ...}, "source": {...}}
type WeightsFile struct {
	Game      string             `json:"game"`
	Evaluator string             `json:"evaluator"`
	Weights   map[string]float64 `json:"weights"`
	Source    map[string]any     `json:"source,omitempty"`
}

// ParseWeights reads a weights file for game g and checks it: the same game,
// a known evaluator, every feature present once, no unknown feature, finite
// values within range. Errors name the offending field or feature.
func ParseWeights(data []byte, g Game) (*Evaluator, []float64, error) {
	var f WeightsFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, nil, fmt.Errorf("weights: not a weights file ({\"game\", \"evaluator\", \"weights\": {name: value}}): %w", err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("weights: unexpected data after the JSON object")
	}
	if f.Game != g.Name() {
		return nil, nil, fmt.Errorf("weights: the file is for game %q, not %q", f.Game, g.Name())
	}
	ev, err := FindEvaluator(g, f.Evaluator)
	if err != nil {
		return nil, nil, fmt.Errorf("weights: %w", err)
	}
	if f.Evaluator == "" {
		return nil, nil, fmt.Errorf("weights: the file names no evaluator (%s has %s)", g.Name(), evaluatorNames(g))
	}
	w := make([]float64, len(ev.Features))
	var missing []string
	for i, feat := range ev.Features {
		v, ok := f.Weights[feat.Name]
		if !ok {
			missing = append(missing, feat.Name)
		}
		w[i] = v
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("weights: features missing for %s/%s: %v", g.Name(), ev.Name, missing)
	}
	var unknown []string
	for name := range f.Weights {
		if ev.Index(name) < 0 {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, nil, fmt.Errorf("weights: unknown features for %s/%s: %v", g.Name(), ev.Name, unknown)
	}
	if err := ev.Check(w); err != nil {
		return nil, nil, fmt.Errorf("weights: %w", err)
	}
	return ev, w, nil
}

// MaxWeightsFile is the most ReadWeights reads of a weights file: 4 MiB, a
// thousand times the size of the largest evaluator's file.
const MaxWeightsFile = 4 << 20

// ReadWeights reads and checks a weights file from disk. A file larger than
// MaxWeightsFile is an error wrapping ErrTooLarge, read no further.
func ReadWeights(path string, g Game) (*Evaluator, []float64, error) {
	data, err := ReadFileLimited(path, MaxWeightsFile)
	if err != nil {
		return nil, nil, fmt.Errorf("weights: %w", err)
	}
	ev, w, err := ParseWeights(data, g)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return ev, w, nil
}

// WriteWeights writes w for evaluator ev of game g as an indented weights
// file, with the features in the evaluator's order.
func WriteWeights(out io.Writer, g Game, ev *Evaluator, w []float64, source map[string]any) error {
	if len(w) != len(ev.Features) {
		return fmt.Errorf("weights: %d weights for %d features", len(w), len(ev.Features))
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"game\": %q,\n  \"evaluator\": %q,\n  \"weights\": {\n", g.Name(), ev.Name)
	for i, f := range ev.Features {
		v, err := json.Marshal(w[i])
		if err != nil {
			return fmt.Errorf("weights: feature %q: %w", f.Name, err)
		}
		sep := ","
		if i == len(ev.Features)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "    %q: %s%s\n", f.Name, v, sep)
	}
	b.WriteString("  }")
	if len(source) > 0 {
		src, err := json.MarshalIndent(source, "  ", "  ")
		if err != nil {
			return fmt.Errorf("weights: source: %w", err)
		}
		b.WriteString(",\n  \"source\": ")
		b.Write(src)
	}
	b.WriteString("\n}\n")
	_, err := out.Write(b.Bytes())
	return err
}

func evaluatorNames(g Game) []string {
	var names []string
	for _, e := range g.Evaluators() {
		names = append(names, e.Name)
	}
	return names
}
