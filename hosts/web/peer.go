package web

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// On loopback the view has no access token, and every local user can
// reach its port. Reading is allowed to them as the read-only view always
// has; acting as the person is not. SameUser tells who is on the other
// end of a loopback connection from the kernel's socket table, which
// records the owner of each socket: the client's socket is the one whose
// local address is the request's remote address and whose peer is the
// view's own address.

// ErrPeerUnknown is returned where the system does not say who owns a
// loopback connection's other end.
var ErrPeerUnknown = errors.New("this system does not say which local user opened a connection")

// socketTables are the kernel's TCP socket tables (Linux).
var socketTables = []string{"/proc/net/tcp", "/proc/net/tcp6"}

// CanTellPeers reports whether SameUser can work on this system.
func CanTellPeers() bool {
	_, err := os.Stat(socketTables[0])
	return err == nil
}

// SameUser refuses a request whose connection was opened by another OS
// user than the one running the view.
func SameUser(r *http.Request) error {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return ErrPeerUnknown
	}
	server, err1 := netip.ParseAddrPort(local.String())
	client, err2 := netip.ParseAddrPort(r.RemoteAddr)
	if err1 != nil || err2 != nil {
		return ErrPeerUnknown
	}
	uid, err := socketOwner(client, server)
	if err != nil {
		return err
	}
	if uid != os.Getuid() {
		return fmt.Errorf("this connection was opened by another local user (uid %d); only the user running the view may act from it", uid)
	}
	return nil
}

// socketOwner finds the uid owning the socket at from connected to to.
func socketOwner(from, to netip.AddrPort) (int, error) {
	for _, table := range socketTables {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		uid, found := scanTable(bufio.NewScanner(f), from, to)
		f.Close()
		if found {
			return uid, nil
		}
	}
	return 0, ErrPeerUnknown
}

// scanTable reads one socket table for the row from → to.
func scanTable(sc *bufio.Scanner, from, to netip.AddrPort) (int, bool) {
	wantFrom, wantTo := kernelForms(from), kernelForms(to)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 8 || !oneOf(f[1], wantFrom) || !oneOf(f[2], wantTo) {
			continue
		}
		uid, err := strconv.Atoi(f[7])
		return uid, err == nil
	}
	return 0, false
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if strings.EqualFold(s, x) {
			return true
		}
	}
	return false
}

// kernelForms are the spellings of a in the socket tables: IPv4 as one
// little-endian word, IPv6 (and IPv4 mapped into it) as four, then the
// port in hex.
func kernelForms(a netip.AddrPort) []string {
	port := fmt.Sprintf(":%04X", a.Port())
	ip := a.Addr().Unmap()
	var out []string
	if ip.Is4() {
		b := ip.As4()
		out = append(out, fmt.Sprintf("%08X", binary.LittleEndian.Uint32(b[:]))+port)
	}
	b := ip.As16() // an IPv4 address as ::ffff:a.b.c.d
	var words strings.Builder
	for i := 0; i < 16; i += 4 {
		fmt.Fprintf(&words, "%08X", binary.LittleEndian.Uint32(b[i:i+4]))
	}
	return append(out, words.String()+port)
}
