// Package external plays external engine processes as tournament players.
// A Spec (read by Parse, or from an engines file by ParseEngines) describes
// an engine: its command, protocol (UCI or xboard for chess, GTP for
// Othello),
// options, limits and supervision; as a Player's Engine it makes the
// movers a tournament.Pool worker holds. Check tries a spec before any
// game. Engines.Players resolves the player specs of a match or a
// tournament (ReadEngines reads the engines file, at most MaxEnginesFile
// bytes; OpenLog opens the log of the engines' stderr, a temporary one
// made at its first write).
//
// A mover keeps its process between games and holds it within bounds:
//   - its process tree: on Linux an engine runs under a supervisor, this
//     binary started again, a child subreaper that kills every process
//     below it when the engine exits, when the mover closes it and when
//     gametune dies (supervise_linux.go says what can still escape);
//     elsewhere the engine leads a process group killed whole;
//   - its output: stdout lines of at most MaxLine bytes, GTP answers of at
//     most 64 KiB, at most 1000 options listed; stderr to the log at most
//     StderrCap bytes a game, lines cut at 4 KiB, its last 4 KiB kept;
//   - its input: option names and values are one line of printable text;
//   - its faults: crashes, stalls and illegal moves lose the game as
//     tournament.Faults whose one-line detail (with the last line of the
//     engine's stderr) reaches the game's record and the log.
//
// An xboard (CECP) engine is spoken to as cutechess speaks to it
// (xboard.go): protover 2 and its features, or version 1 when it says
// none; new, force, setboard (edit where it is not offered), level, st or
// sd, time and otim, usermove or plain moves in coordinates or SAN, go,
// ping to stay in step. What it says is judged as cutechess judges it:
// resign, or a claim of its own loss, loses by resignation; a claim the
// board does not bear out loses (a draw claimed before a move that does
// not end the game drawn, a win or * while the game goes on); offer draw
// is passed over; Illegal move about a legal move is a crash. A
// resignation or a false claim leaves the process running.
package external
