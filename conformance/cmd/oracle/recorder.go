package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
)

// The recorder is an admission webhook the defaults suite installs: it admits every request and
// keeps the object (and old object) of each review, so that the suite can read what the
// apiserver's validating admission saw, by the object's kind, namespace and name:
//
//	POST /record                       an AdmissionReview (admission.k8s.io/v1); answered with allowed
//	GET  /recorded?key=<kind>/<ns>/<name>  {"object": ..., "oldObject": ...}, or 404
type recorder struct {
	mu      sync.Mutex
	reviews map[string]json.RawMessage
}

type admissionReview struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Request    struct {
		UID  string `json:"uid"`
		Kind struct {
			Kind string `json:"kind"`
		} `json:"kind"`
		Namespace string          `json:"namespace"`
		Object    json.RawMessage `json:"object"`
		OldObject json.RawMessage `json:"oldObject"`
	} `json:"request"`
}

// startRecorder serves the recorder on a free loopback port with the oracle's serving certificate
// and returns its base URL.
func startRecorder(creds credentials) (string, error) {
	r := &recorder{reviews: map[string]json.RawMessage{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/record", r.record)
	mux.HandleFunc("/recorded", r.recorded)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	go func() { _ = http.ServeTLS(listener, mux, creds.certFile, creds.keyFile) }()
	return fmt.Sprintf("https://%s", listener.Addr().String()), nil
}

func (r *recorder) record(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	var review admissionReview
	if err == nil {
		err = json.Unmarshal(body, &review)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var meta struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(review.Request.Object, &meta)
	key := review.Request.Kind.Kind + "/" + review.Request.Namespace + "/" + meta.Metadata.Name
	saved, _ := json.Marshal(map[string]json.RawMessage{"object": review.Request.Object, "oldObject": review.Request.OldObject})
	r.mu.Lock()
	r.reviews[key] = saved
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"apiVersion": "admission.k8s.io/v1",
		"kind":       "AdmissionReview",
		"response":   map[string]any{"uid": review.Request.UID, "allowed": true},
	})
}

func (r *recorder) recorded(w http.ResponseWriter, req *http.Request) {
	key := req.URL.Query().Get("key")
	r.mu.Lock()
	saved, ok := r.reviews[key]
	r.mu.Unlock()
	if !ok {
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(saved)
}
