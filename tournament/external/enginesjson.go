package external

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// cutechessEngine is one engine of cutechess's engines.json, the keys
// gametune reads. cutechess writes more (stderrFile, whitepov, ponder,
// variants, validateClaims, debug): they are ignored, as are keys
// cutechess does not know.
type cutechessEngine struct {
	Name        string            `json:"name"`
	Command     string            `json:"command"`
	Dir         string            `json:"workingDirectory"`
	Protocol    string            `json:"protocol"`
	InitStrings []string          `json:"initStrings"`
	Restart     any               `json:"restart"`
	Options     []cutechessOption `json:"options"`
}

// cutechessOption is one option of an engine of engines.json: cutechess
// also writes alias, default, min, max and choices, which the engine
// itself checks.
type cutechessOption struct {
	Name  string          `json:"name"`
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// IsEnginesJSON reports whether data looks like cutechess's engines.json:
// a JSON array (gametune's own engines file is a YAML list).
func IsEnginesJSON(data []byte) bool {
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(data) > 0 && data[0] == '[' && json.Valid(data)
}

// ParseEnginesJSON reads cutechess-cli's engines.json (the file of
// cutechess's GUI and of "cutechess-cli -engine conf=NAME"): a JSON array
// of objects with name, command, protocol ("uci" or "xboard"),
// workingDirectory, initStrings, restart and options (objects with name,
// type and value; buttons are skipped). The command is split into the
// program and its arguments as cutechess does (Qt's QProcess: at white
// space, double quotes group, three double quotes are one). Lines of
// initStrings that set an option set it: UCI's "setoption name N value
// V", xboard's "option N=V", "memory V" and "cores V"; other lines are
// refused. The
// specs have no limit: cutechess gives one with -each, gametune with
// --each or in the player spec. Errors name the engine.
func ParseEnginesJSON(data []byte) (Engines, error) {
	var raw []json.RawMessage
	data = bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if !bytes.HasPrefix(data, []byte("[")) {
		return nil, errors.New("not a JSON array (want cutechess's engines.json: a JSON array of engines with name, command, protocol, workingDirectory, options)")
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%v (want cutechess's engines.json: a JSON array of engines with name, command, protocol, workingDirectory, options)", err)
	}
	out := Engines{}
	for i, r := range raw {
		var e cutechessEngine
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("engine %d: %v (want an object with name, command, protocol, ...)", i+1, err)
		}
		if e.Name == "" {
			return nil, fmt.Errorf("engine %d has no name", i+1)
		}
		if _, dup := out[e.Name]; dup {
			return nil, fmt.Errorf("two engines are named %q", e.Name)
		}
		spec, err := e.spec()
		if err != nil {
			return nil, fmt.Errorf("engine %d (%q): %v", i+1, e.Name, err)
		}
		out[e.Name] = spec
	}
	return out, nil
}

// spec writes the engine as a spec, in Parse's form, without a limit.
func (e cutechessEngine) spec() (string, error) {
	words := splitCommand(e.Command)
	if len(words) == 0 {
		return "", errors.New("command is empty (want the engine's program and its arguments)")
	}
	var proto string
	switch e.Protocol {
	case "uci":
		proto = ProtocolUCI
	case "xboard":
		proto = ProtocolXboard
	default:
		return "", fmt.Errorf("protocol %q: cutechess's engines.json says uci or xboard", e.Protocol)
	}
	var kv []string
	add := func(key, value string) error {
		v, err := specValue(key, value)
		kv = append(kv, key+"="+v)
		return err
	}
	errs := []error{add("cmd", words[0]), add("proto", proto), add("name", e.Name)}
	for _, a := range words[1:] {
		errs = append(errs, add("arg", a))
	}
	if e.Dir != "" {
		errs = append(errs, add("dir", e.Dir))
	}
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	opts, err := e.options(proto)
	if err != nil {
		return "", err
	}
	for _, o := range opts {
		if err := add("option."+o.Name, o.Value); err != nil {
			return "", err
		}
	}
	if r, ok := e.Restart.(string); ok && (r == "on" || r == "off") {
		kv = append(kv, "restart="+r) // "auto", cutechess's default, is gametune's off
	}
	return strings.Join(kv, ","), nil
}

// options are the engine's options (buttons skipped), then those of its
// init strings in proto's form.
func (e cutechessEngine) options(proto string) ([]Option, error) {
	var out []Option
	for _, o := range e.Options {
		if o.Type == "button" {
			continue // a button has no value to set before a game
		}
		value, err := optionValue(o.Value)
		if err != nil {
			return nil, fmt.Errorf("option %q: %v", o.Name, err)
		}
		if err := checkOptionName(o.Name); err != nil {
			return nil, err
		}
		out = append(out, Option{Name: o.Name, Value: value})
	}
	for _, line := range e.InitStrings {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		name, value, err := initOption(proto, line)
		if err != nil {
			return nil, err
		}
		if err := checkOptionName(name); err != nil {
			return nil, err
		}
		out = append(out, Option{Name: name, Value: strings.TrimSpace(value)})
	}
	return out, nil
}

// initOption reads an init string that sets an option: UCI's "setoption
// name NAME value VALUE", xboard's "option NAME=VALUE", "memory N" or
// "cores N".
func initOption(proto, line string) (name, value string, err error) {
	if proto == ProtocolXboard {
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "memory", "cores":
			return word, strings.TrimSpace(rest), nil
		case "option":
			if name, value, ok := strings.Cut(rest, "="); ok {
				return strings.TrimSpace(name), strings.TrimSpace(value), nil
			}
		}
		return "", "", fmt.Errorf("init string %q: gametune sends options only, as init strings \"option NAME=VALUE\", \"memory N\" and \"cores N\", or options", sanitize(line))
	}
	rest, ok := strings.CutPrefix(line, "setoption name ")
	name, value, hasValue := strings.Cut(rest, " value ")
	if !ok || !hasValue {
		return "", "", fmt.Errorf("init string %q: gametune sends options only, as init strings \"setoption name NAME value VALUE\" or options", sanitize(line))
	}
	return strings.TrimSpace(name), strings.TrimSpace(value), nil
}

// optionValue is an option's JSON value as text: a string as it is, a
// number as written, a boolean as true or false.
func optionValue(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", errors.New("has no value")
	}
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case 't', 'f':
		return string(raw), nil
	case 'n':
		return "", errors.New("value is null (want a string, a number or true/false)")
	case '{', '[':
		return "", errors.New("value is an object or an array (want a string, a number or true/false)")
	}
	return string(raw), nil // a number, as json.Valid left it
}

// checkOptionName refuses an option name a spec cannot carry: empty,
// holding a comma, an equals sign or a double quote, or starting or
// ending with white space.
func checkOptionName(name string) error {
	switch {
	case name == "":
		return errors.New("an option has no name")
	case strings.ContainsAny(name, `,="`):
		return fmt.Errorf("option %q: a name holding a comma, = or a double quote cannot be set", sanitize(name))
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("option %q: a name starting or ending with a space cannot be set", sanitize(name))
	}
	return nil
}

// specValue writes value for key in a spec: in double quotes when it
// holds a comma or starts or ends with white space (which Parse would
// drop). A value holding a double quote or a control character is
// refused, as Parse refuses it.
func specValue(key, value string) (string, error) {
	if i := controlIndex(value); i >= 0 {
		return "", fmt.Errorf("%s %q holds the control character %q", key, value, value[i])
	}
	if strings.Contains(value, `"`) {
		return "", fmt.Errorf("%s %q holds a double quote, which a spec cannot carry", key, value)
	}
	if strings.Contains(value, ",") || strings.TrimSpace(value) != value {
		return `"` + value + `"`, nil
	}
	return value, nil
}

// splitCommand splits a command line as cutechess does on Unix (Qt's
// QProcess::splitCommand): words are separated by white space, double
// quotes group a word holding spaces, and three double quotes in a row
// stand for one.
func splitCommand(command string) []string {
	var words []string
	var word strings.Builder
	quotes, quoted := 0, false
	for _, r := range strings.TrimSpace(command) {
		if r == '"' {
			if quotes++; quotes == 3 {
				quotes = 0
				word.WriteRune(r)
			}
			continue
		}
		if quotes == 1 {
			quoted = !quoted
		}
		quotes = 0
		if !quoted && unicode.IsSpace(r) {
			if word.Len() > 0 {
				words = append(words, word.String())
				word.Reset()
			}
			continue
		}
		word.WriteRune(r)
	}
	if word.Len() > 0 {
		words = append(words, word.String())
	}
	return words
}
