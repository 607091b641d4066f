package games

// Mix scrambles a 64-bit state key into a well-spread hash (the splitmix64
// finaliser). Small games whose whole state fits in a word use it as their
// Zobrist hash: distinct states give distinct hashes.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
