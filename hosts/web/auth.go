package web

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// cookieName holds the token in the browser after a one-time URL.
const cookieName = "collab_web_token"

// authorised admits every request when no token is configured; otherwise
// a request must carry the token as "Authorization: Bearer …" or in the
// cookie. A GET with ?token= that matches sets the cookie and redirects to
// the same path without the token, so the token leaves the address bar
// and the history.
func (s *Server) authorised(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	if q := r.URL.Query().Get("token"); q != "" && s.matches(q) {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: q, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
		clean := *r.URL
		v := clean.Query()
		v.Del("token")
		clean.RawQuery = v.Encode()
		http.Redirect(w, r, clean.RequestURI(), http.StatusSeeOther)
		return false
	}
	if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.matches(bearer) {
		return true
	}
	if c, err := r.Cookie(cookieName); err == nil && s.matches(c.Value) {
		return true
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="collab"`)
	http.Error(w, "This view needs its access token: open the one-time URL the web command printed, or send Authorization: Bearer <token>.", http.StatusUnauthorized)
	return false
}

func (s *Server) matches(token string) bool {
	return subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.Token)) == 1
}
