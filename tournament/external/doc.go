// Package external plays external engine processes as tournament players.
// A Spec (read by Parse, or from an engines file by ParseEngines) describes
// an engine: its command, protocol (UCI for chess, GTP for Othello),
// options, limits and supervision; as a Player's Engine it makes the
// movers a tournament.Pool worker holds. A mover supervises its process:
// its own process group (killed whole on close, and with gametune on
// Linux), bounded output lines, stalls, crashes and illegal moves as
// tournament.Faults, and the process kept between games. Check tries a
// spec before any game. Engines.Players resolves the player specs of a
// match or a tournament (ReadEngines reads the engines file; OpenLog opens
// the log of the engines' stderr).
package external
