package games

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gametune/gametune/files"
)

// WeightsFile is the JSON form of one evaluator's weights, the file that
// every --weights flag reads and `tune export --format json` writes for an
// evaluator without tables:
//
//	{"game": "othello", "evaluator": "full", "weights": {"corners": 2.5, ...}, "source": {...}}
//
// An evaluator with tables has the compact, gzip-compressed file instead
// (TablesHeader describes it); ParseWeights and ReadWeights read both.
type WeightsFile struct {
	Game      string             `json:"game"`
	Evaluator string             `json:"evaluator"`
	Weights   map[string]float64 `json:"weights"`
	Source    map[string]any     `json:"source,omitempty"`
}

// ParseWeights reads a weights file for game g and checks it: the same game,
// a known evaluator, every feature present once, no unknown feature, finite
// values within range. Errors name the offending field or feature.
//
// A file starting with gzip's magic bytes is the compact file of an
// evaluator with tables (TablesHeader): the evaluator returned is then bound
// to the file's tables (Evaluator.WithData), after the checks of
// ParseTablesWeights. A JSON file for an evaluator with tables is an error:
// it cannot hold the tables.
func ParseWeights(data []byte, g Game) (*Evaluator, []float64, error) {
	if IsTablesWeights(data) {
		return parseTablesWeights(data, g)
	}
	var f WeightsFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		if bytes.Contains(data[:min(len(data), 200)], []byte(`"`+TablesFormat+`"`)) {
			return nil, nil, fmt.Errorf("weights: a %s header without its gzip compression (the compact file is gzip-compressed as a whole, as tune export writes it)", TablesFormat)
		}
		return nil, nil, fmt.Errorf("weights: not a weights file (JSON {\"game\", \"evaluator\", \"weights\": {name: value}}, or the gzip-compressed file of an evaluator with tables): %w", err)
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
	if len(ev.Tables) > 0 {
		return nil, nil, fmt.Errorf("weights: the tables of %s/%s are missing: a JSON weights file holds features only; "+
			"the evaluator's %d tables (%s) come in its compact gzip-compressed file (tune export --format json writes it), "+
			"and default:%s plays its own defaults", g.Name(), ev.Name, len(ev.Tables), tableNames(ev.Tables), ev.Name)
	}
	w, err := checkFeatures(g, ev, f.Weights)
	if err != nil {
		return nil, nil, err
	}
	return ev, w, nil
}

// checkFeatures returns the weights named in weights in the order of ev's
// features, after checking that each is present, none unknown, and all
// finite and within range.
func checkFeatures(g Game, ev *Evaluator, weights map[string]float64) ([]float64, error) {
	w := make([]float64, len(ev.Features))
	var missing []string
	for i, feat := range ev.Features {
		v, ok := weights[feat.Name]
		if !ok {
			missing = append(missing, feat.Name)
		}
		w[i] = v
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("weights: features missing for %s/%s: %v", g.Name(), ev.Name, missing)
	}
	var unknown []string
	for name := range weights {
		if ev.Index(name) < 0 {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, fmt.Errorf("weights: unknown features for %s/%s: %v", g.Name(), ev.Name, unknown)
	}
	if err := ev.Check(w); err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	return w, nil
}

// MaxWeightsFile is the most ReadWeights reads of a JSON weights file: 4
// MiB, a thousand times the size of the largest evaluator's file.
const MaxWeightsFile = 4 << 20

// MaxTablesFile is the most ReadWeights reads of a compact (gzip) weights
// file: 64 MiB, more than an uncompressed file of 16 million float32 values.
// What the file decompresses to is bounded apart: its header line by
// MaxTablesHeader, its data by the evaluator's own tables.
const MaxTablesFile = 64 << 20

// ReadWeights reads and checks a weights file from disk (ParseWeights). A
// JSON file larger than MaxWeightsFile, or a compact one larger than
// MaxTablesFile, is an error wrapping ErrTooLarge, read no further; a
// path that is not a regular file (a named pipe, a device, a directory) is
// refused at once (files.Open).
func ReadWeights(path string, g Game) (*Evaluator, []float64, error) {
	data, err := readWeightsFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("weights: %w", err)
	}
	ev, w, err := ParseWeights(data, g)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return ev, w, nil
}

// readWeightsFile reads a weights file (a regular file: files.Open)
// through the limit of its kind, told by its first two bytes.
func readWeightsFile(path string) ([]byte, error) {
	f, err := files.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	limit := int64(MaxWeightsFile)
	if magic, _ := r.Peek(len(gzipMagic)); IsTablesWeights(magic) {
		limit = MaxTablesFile
	}
	return files.ReadAllLimited(r, path, limit)
}

// WeightsGame returns the game a weights file of either kind names,
// without checking the rest of it (ReadWeights does, given that game).
func WeightsGame(path string) (string, error) {
	game, _, err := weightsHeader(path)
	return game, err
}

// WeightsSource returns the source a weights file of either kind records
// (its "source": what made it; nil when it has none), without checking the
// rest of it (ReadWeights does).
func WeightsSource(path string) (map[string]any, error) {
	_, source, err := weightsHeader(path)
	return source, err
}

// weightsHeader reads the game and the source of a weights file.
func weightsHeader(path string) (string, map[string]any, error) {
	data, err := readWeightsFile(path)
	if err != nil {
		return "", nil, fmt.Errorf("weights: %w", err)
	}
	if IsTablesWeights(data) {
		h, err := readTablesHeader(data)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", path, err)
		}
		return h.Game, h.Source, nil
	}
	var f struct {
		Game   string         `json:"game"`
		Source map[string]any `json:"source"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Game == "" {
		return "", nil, fmt.Errorf("%s: weights: not a weights file naming its game ({\"game\": ...}): %v", path, err)
	}
	return f.Game, f.Source, nil
}

// WriteWeights writes w for evaluator ev of game g: for an evaluator
// without tables, an indented JSON weights file with the features in the
// evaluator's order; for one with tables, the compact file (TablesHeader)
// holding its Data, each table as int16 (WriteWeightsWith chooses).
func WriteWeights(out io.Writer, g Game, ev *Evaluator, w []float64, source map[string]any) error {
	return WriteWeightsWith(out, g, ev, w, source, WeightsOptions{})
}

// WeightsOptions are the choices of WriteWeightsWith; the zero value is
// WriteWeights'.
type WeightsOptions struct {
	// Encoding of every table of a compact file: EncodingInt16 ("" too),
	// scaled per table, or EncodingFloat32, exact.
	Encoding string
}

// WriteWeightsWith is WriteWeights with options.
func WriteWeightsWith(out io.Writer, g Game, ev *Evaluator, w []float64, source map[string]any, opts WeightsOptions) error {
	if len(w) != len(ev.Features) {
		return fmt.Errorf("weights: %d weights for %d features", len(w), len(ev.Features))
	}
	if len(ev.Tables) > 0 {
		return writeTablesWeights(out, g, ev, w, source, opts.Encoding)
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

func tableNames(ts []Table) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return strings.Join(names, ", ")
}

// SpecGame returns the game of a weights spec: a weights file names its own,
// which must agree with game when game is given; "default:EVALUATOR" names
// none, so game must be given.
func SpecGame(spec, game string) (string, error) {
	if strings.HasPrefix(spec, "default:") {
		if game == "" {
			return "", fmt.Errorf("weights %s needs --game", spec)
		}
		return game, nil
	}
	name, err := WeightsGame(spec)
	if err != nil {
		return "", err
	}
	if game != "" && game != name {
		return "", fmt.Errorf("%s holds weights of %s, not %s", spec, name, game)
	}
	return name, nil
}
