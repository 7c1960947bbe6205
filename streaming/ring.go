package streaming

import "hash/maphash"

// ring remembers the last n ids added, by a 64-bit hash of each (no copy
// of the id is kept; two ids of one run sharing a hash is a chance of one
// in 2^64 per pair).
type ring struct {
	ids  []uint64
	set  map[uint64]int32
	next int
	seed maphash.Seed
}

func newRing(n int) ring {
	return ring{ids: make([]uint64, 0, n), set: make(map[uint64]int32, n), seed: maphash.MakeSeed()}
}

func (r *ring) add(id string) {
	h := maphash.String(r.seed, id)
	if _, ok := r.set[h]; ok {
		return
	}
	if len(r.ids) < cap(r.ids) {
		r.ids = append(r.ids, h)
	} else {
		old := r.ids[r.next]
		if r.set[old]--; r.set[old] <= 0 {
			delete(r.set, old)
		}
		r.ids[r.next] = h
		r.next = (r.next + 1) % len(r.ids)
	}
	r.set[h]++
}

func (r *ring) has(id string) bool {
	_, ok := r.set[maphash.String(r.seed, id)]
	return ok
}

// reset forgets every id (a new run).
func (r *ring) reset() {
	r.ids = r.ids[:0]
	r.next = 0
	clear(r.set)
}
