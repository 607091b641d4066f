package lines

import "strings"

// Command is one line of a GUI's: its first word, the words after it,
// and the text after the first word as sent, for arguments that keep
// their spaces (xboard's setboard FEN, NBoard's set game GGF).
type Command struct {
	Name string
	Args []string
	Rest string
}

// Split splits a line into its command's name, arguments and rest, white
// space around it aside; false for a line with no word.
func Split(line string) (Command, bool) {
	line = strings.TrimSpace(line)
	f := strings.Fields(line)
	if len(f) == 0 {
		return Command{}, false
	}
	return Command{Name: f[0], Args: f[1:], Rest: strings.TrimSpace(line[len(f[0]):])}, true
}
