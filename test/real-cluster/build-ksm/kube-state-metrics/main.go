// kube-state-metrics for the real-cluster lane (built by build.sh, run by ksm.sh): upstream's main
// (k8s.io/kube-state-metrics/v2, main.go) without its internal package, which only reloads the
// options' configuration files when they change; the lane passes flags.
package main

import (
	"context"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"k8s.io/klog/v2"

	"k8s.io/kube-state-metrics/v2/pkg/app"
	"k8s.io/kube-state-metrics/v2/pkg/options"
)

func main() {
	opts := options.NewOptions()
	cmd := options.InitCommand
	cmd.Run = func(_ *cobra.Command, _ []string) {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
		defer stop()
		if err := app.RunKubeStateMetricsWrapper(ctx, opts); err != nil {
			klog.ErrorS(err, "Failed to run kube-state-metrics")
			klog.FlushAndExit(klog.ExitFlushTimeout, 1)
		}
	}
	opts.AddFlags(cmd)
	if err := opts.Parse(); err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	if err := opts.Validate(); err != nil {
		klog.ErrorS(err, "Validating options error")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
}
