// Command oracle runs a real kube-apiserver, with an embedded etcd, on loopback only, for the
// differential suites of cdk8s-admission. It writes a JSON file with the server's address, the CA
// that signed its serving certificate and a bearer token once /readyz answers, and exits when its
// standard input closes (so that it never outlives the suite that started it).
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

// readyInfo is what the oracle writes to --ready-file; the TypeScript client reads it.
type readyInfo struct {
	Server          string `json:"server"`
	CA              string `json:"ca"`
	Token           string `json:"token"`
	AuditLog        string `json:"auditLog"`
	Recorder        string `json:"recorder"`
	EmulatedVersion string `json:"emulatedVersion,omitempty"`
}

func main() {
	dir := flag.String("dir", "", "working directory for etcd data, certificates and logs (created)")
	readyFile := flag.String("ready-file", "", "where to write the connection details once ready")
	emulated := flag.String("emulated-version", "", "Kubernetes minor the apiserver emulates (for example 1.34); empty: its own")
	runtimeConfig := flag.String("runtime-config", "", "extra --runtime-config for the apiserver")
	verbose := flag.Bool("verbose", false, "keep the apiserver's and etcd's logs on stderr")
	admissionConfig := flag.String("admission-control-config-file", "", "an AdmissionConfiguration for the apiserver (static manifest directories); empty: none")
	celFunctions := flag.String("cel-functions", "", "print the CEL function overloads for new expressions at this compatibility version (1.N) as JSON, and exit")
	celTypes := flag.Bool("cel-types", false, "print the CEL type of every built-in kind as the policy type checker declares it, as JSON, and exit")
	typeChecks := flag.Bool("type-check", false, "type-check validation expressions read from stdin (JSON lines) as kube-controller-manager's policy type checker does, and exit")
	evaluations := flag.Bool("cel-eval", false, "evaluate validation expressions read from stdin (JSON lines) as the validating admission policy plugin does, and exit")
	flag.Parse()
	if *evaluations {
		if err := runEvaluations(); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(1)
		}
		return
	}
	if *typeChecks {
		if err := runTypeChecks(); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(1)
		}
		return
	}
	if *celTypes {
		if err := dumpCelTypes(); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(1)
		}
		return
	}
	if *celFunctions != "" {
		if err := dumpCelFunctions(*celFunctions); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(1)
		}
		return
	}
	if *dir == "" || *readyFile == "" {
		fmt.Fprintln(os.Stderr, "usage: oracle --dir DIR --ready-file FILE [--emulated-version 1.N] | oracle --cel-functions 1.N")
		os.Exit(2)
	}
	if err := run(*dir, *readyFile, *emulated, *runtimeConfig, *admissionConfig, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		if !*verbose {
			fmt.Fprintln(os.Stderr, "oracle: the last lines of", filepath.Join(*dir, "oracle.log"), "follow")
			printTail(filepath.Join(*dir, "oracle.log"), 40)
		}
		var setup setupError
		if errors.As(err, &setup) {
			os.Exit(exitSetupFailed)
		}
		os.Exit(1)
	}
}

// exitSetupFailed is the exit code when the oracle failed before the apiserver ran (its etcd, its
// credentials, its recorder): the client may start it again, where an apiserver's refusal of its
// configuration (exit code 1) is an answer under test.
const exitSetupFailed = 3

// setupError marks a failure of the oracle's own setup, not of the apiserver.
type setupError struct{ err error }

func (e setupError) Error() string { return e.err.Error() }
func (e setupError) Unwrap() error { return e.err }

func run(dir, readyFile, emulated, runtimeConfig, admissionConfig string, verbose bool) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	// The suite closes our standard input when it is done, or when it dies.
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()

	if !verbose {
		// klog and etcd write to file descriptor 2 whatever the command's writers are.
		restore, err := redirectStderr(filepath.Join(dir, "oracle.log"))
		if err != nil {
			return err
		}
		defer restore()
	}

	creds, err := writeCredentials(dir)
	if err != nil {
		return setupError{err}
	}
	etcdURL, stopEtcd, err := startEtcd(filepath.Join(dir, "etcd"), verbose)
	if err != nil {
		return setupError{fmt.Errorf("etcd: %w", err)}
	}
	defer stopEtcd()

	port, err := freePort()
	if err != nil {
		return setupError{err}
	}
	auditLog := filepath.Join(dir, "audit.log")
	args := apiserverArgs(dir, creds, etcdURL, port, auditLog, emulated, runtimeConfig, admissionConfig, verbose)

	cmd := app.NewAPIServerCommand()
	cmd.SetArgs(args)
	if !verbose {
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
	}
	failed := make(chan error, 1)
	go func() { failed <- cmd.Execute() }()

	server := fmt.Sprintf("https://127.0.0.1:%d", port)
	if err := waitReady(server, creds, failed); err != nil {
		return err
	}
	recorderURL, err := startRecorder(creds)
	if err != nil {
		return setupError{fmt.Errorf("recorder: %w", err)}
	}
	info := readyInfo{Server: server, CA: creds.caFile, Token: creds.token, AuditLog: auditLog, Recorder: recorderURL, EmulatedVersion: emulated}
	data, _ := json.MarshalIndent(info, "", "  ")
	if err := os.WriteFile(readyFile+".tmp", data, 0o600); err != nil {
		return err
	}
	if err := os.Rename(readyFile+".tmp", readyFile); err != nil {
		return err
	}
	fmt.Println("oracle: ready at", server)
	return <-failed
}

func apiserverArgs(dir string, creds credentials, etcdURL string, port int, auditLog, emulated, runtimeConfig, admissionConfig string, verbose bool) []string {
	// Every admissionregistration version the library emits for some target; the binary serves
	// those it still has, and refuses the flag for one it dropped (the suite then lists that as a
	// version it cannot check).
	config := "admissionregistration.k8s.io/v1beta1=true,admissionregistration.k8s.io/v1alpha1=true"
	if runtimeConfig != "" {
		config = runtimeConfig
	}
	args := []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		// Nothing outside this machine reaches the apiserver: no kubernetes Service endpoints.
		"--endpoint-reconciler-type=none",
		fmt.Sprintf("--secure-port=%d", port),
		"--tls-cert-file=" + creds.certFile,
		"--tls-private-key-file=" + creds.keyFile,
		"--token-auth-file=" + creds.tokenFile,
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + creds.saKeyFile,
		"--service-account-signing-key-file=" + creds.saKeyFile,
		"--service-cluster-ip-range=10.96.0.0/16",
		"--runtime-config=" + config,
		"--audit-policy-file=" + creds.auditPolicyFile,
		"--audit-log-path=" + auditLog,
		"--audit-log-format=json",
		"--audit-log-mode=blocking",
		"--shutdown-delay-duration=0s",
		"--profiling=false",
		"--cert-dir=" + filepath.Join(dir, "certs"),
	}
	if emulated != "" {
		args = append(args, "--emulated-version="+emulated)
	}
	if admissionConfig != "" {
		args = append(args, "--admission-control-config-file="+admissionConfig)
	}
	if !verbose {
		args = append(args, "-v=0", "--logging-format=text")
	}
	return args
}

func waitReady(server string, creds credentials, failed <-chan error) error {
	pool := x509.NewCertPool()
	pem, err := os.ReadFile(creds.caFile)
	if err != nil {
		return err
	}
	pool.AppendCertsFromPEM(pem)
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
	}
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case err := <-failed:
			if err == nil {
				err = errors.New("exited before it was ready")
			}
			return fmt.Errorf("kube-apiserver: %w", err)
		default:
		}
		req, _ := http.NewRequest(http.MethodGet, server+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+creds.token)
		resp, err := client.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	return errors.New("kube-apiserver was not ready within 3 minutes")
}

// startEtcd starts an embedded etcd on two free ports, drawing them again when another process
// took one between the draw and the bind.
func startEtcd(dataDir string, verbose bool) (string, func(), error) {
	for attempt := 1; ; attempt++ {
		url, stop, err := startEtcdOnce(dataDir, verbose)
		if err == nil || attempt == 5 || !addressInUse(err) {
			return url, stop, err
		}
		// etcd refuses a bind before it writes any data; start the next attempt from nothing.
		_ = os.RemoveAll(dataDir)
	}
}

// addressInUse tells a bind refused because the port is taken; etcd does not always wrap the
// listener's error, so its text is read too.
func addressInUse(err error) bool {
	return errors.Is(err, syscall.EADDRINUSE) || strings.Contains(err.Error(), "address already in use")
}

func startEtcdOnce(dataDir string, verbose bool) (string, func(), error) {
	clientPort, err := freePort()
	if err != nil {
		return "", nil, err
	}
	peerPort, err := freePort()
	if err != nil {
		return "", nil, err
	}
	clientURL, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", clientPort))
	peerURL, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", peerPort))

	cfg := embed.NewConfig()
	cfg.Name = "oracle"
	cfg.Dir = dataDir
	cfg.ListenClientUrls = []url.URL{*clientURL}
	cfg.AdvertiseClientUrls = []url.URL{*clientURL}
	cfg.ListenPeerUrls = []url.URL{*peerURL}
	cfg.AdvertisePeerUrls = []url.URL{*peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	// The data is thrown away after the run: no need to sync every write to disk.
	cfg.UnsafeNoFsync = true
	if !verbose {
		cfg.LogLevel = "error"
	}
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return "", nil, err
	}
	select {
	case <-e.Server.ReadyNotify():
	case <-time.After(time.Minute):
		e.Close()
		return "", nil, errors.New("etcd was not ready within a minute")
	}
	return clientURL.String(), e.Close, nil
}
