package engine

// MarshalList writes items as a JSON array into one buffer, each by
// appendOne: a view may list hundreds of legal moves, and a buffer for
// each is an allocation each. A nil list is null, as encoding/json has it.
func MarshalList[T any](items []T, appendOne func(b []byte, item T) ([]byte, error)) ([]byte, error) {
	if items == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 1+48*len(items))
	b = append(b, '[')
	for i, item := range items {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendOne(b, item); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}
