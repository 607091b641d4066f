// Package xboard reads and writes the messages of the Chess Engine
// Communication Protocol (CECP, the protocol of xboard and WinBoard),
// both ways: what a GUI sends an engine (level, time, usermove, setboard,
// ...; ParseCommand, ParseLevel) and what an engine answers (feature,
// move, pong, thinking lines, result claims, resign, Illegal move, Error;
// ParseOutput, ParseFeatures, ParseOption). A match runner driving an
// xboard engine (tournament/external) uses it as the GUI; `tune engine
// chess --protocol xboard` serves CECP version 2 with Serve, the engine
// side's loop, against the small Engine interface it declares.
//
// Version 2 engines announce their abilities with feature commands after
// "protover 2"; Features keeps them with the defaults of version 1 for
// those an engine leaves out, which is what a GUI assumes of an engine
// that never answers protover.
//
// Moves stay strings: coordinate notation (e2e4, e7e8q) or SAN when an
// engine asked for it; checking them against a position is the caller's
// business.
package xboard
