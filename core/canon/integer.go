package canon

import "fmt"

// integerValue converts any Go integer type to float64. ok reports whether v
// was an integer at all; err is set when its magnitude exceeds 2^53, where
// the conversion would silently change the number being hashed.
func integerValue(v any) (f float64, ok bool, err error) {
	switch x := v.(type) {
	case int:
		return signedValue(int64(x))
	case int8:
		return signedValue(int64(x))
	case int16:
		return signedValue(int64(x))
	case int32:
		return signedValue(int64(x))
	case int64:
		return signedValue(x)
	case uint:
		return unsignedValue(uint64(x))
	case uint8:
		return unsignedValue(uint64(x))
	case uint16:
		return unsignedValue(uint64(x))
	case uint32:
		return unsignedValue(uint64(x))
	case uint64:
		return unsignedValue(x)
	}
	return 0, false, nil
}

func signedValue(i int64) (float64, bool, error) {
	if i > maxSafeInteger || i < -maxSafeInteger {
		return 0, true, fmt.Errorf("%w: %d", ErrUnsafeInteger, i)
	}
	return float64(i), true, nil
}

func unsignedValue(u uint64) (float64, bool, error) {
	if u > maxSafeInteger {
		return 0, true, fmt.Errorf("%w: %d", ErrUnsafeInteger, u)
	}
	return float64(u), true, nil
}
