// Command upstream-vpa-golden feeds usage events through the upstream VPA recommender's own model and
// logic code (k8s.io/autoscaler/vertical-pod-autoscaler v1.8.1) and prints its estimates, so that
// Tailor's `vpa` strategy can be checked against upstream exactly. Test infrastructure only: it is
// run by hand (see README.md) and its output is committed as a fixture.
//
// Input (gzip-compressed CSV, header "seconds,container,kind,value"), one event per line in the
// order upstream should see them:
//
//	cpu  value = cores; enters as the history provider (Prometheus) feeds it: CPUAmountFromCores
//	mem  value = bytes; MemoryAmountFromBytes
//	oom  value = the memory request in bytes at the kill; ContainerState.RecordOOM
//	est  print the estimate: the container's state merged into a fresh one per container name, as
//	     the recommender loop does (AggregateStateByContainerName), then GetRecommendedPodResources
//	     of a recommender built from DefaultRecommenderConfig the way routines/recommender_controller.go
//	     builds it
//
// Output (CSV on stdout): seconds,container,cpu_target,cpu_lower,cpu_upper,memory_target,memory_lower,memory_upper
// (CPU in millicores, memory in bytes: upstream's ResourceAmounts), plus an "oom-discarded" line for
// every OOM event RecordOOM refused.
package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"k8s.io/autoscaler/vertical-pod-autoscaler/pkg/recommender/config"
	"k8s.io/autoscaler/vertical-pod-autoscaler/pkg/recommender/logic"
	"k8s.io/autoscaler/vertical-pod-autoscaler/pkg/recommender/model"
)

const header = "seconds,container,kind,value"

type container struct {
	aggregate *model.AggregateContainerState
	state     *model.ContainerState
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: upstream-vpa-golden EVENTS.csv.gz > estimates.csv")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "upstream-vpa-golden:", err)
		os.Exit(1)
	}
}

func recommender() logic.PodResourceRecommender {
	c := config.DefaultRecommenderConfig()
	return logic.CreatePodResourceRecommender(logic.RecommendationConfig{
		SafetyMarginFraction:       c.SafetyMarginFraction,
		PodMinCPUMillicores:        c.PodMinCPUMillicores,
		PodMinMemoryMb:             c.PodMinMemoryMb,
		TargetCPUPercentile:        c.TargetCPUPercentile,
		LowerBoundCPUPercentile:    c.LowerBoundCPUPercentile,
		UpperBoundCPUPercentile:    c.UpperBoundCPUPercentile,
		ConfidenceIntervalCPU:      c.ConfidenceIntervalCPU,
		TargetMemoryPercentile:     c.TargetMemoryPercentile,
		LowerBoundMemoryPercentile: c.LowerBoundMemoryPercentile,
		UpperBoundMemoryPercentile: c.UpperBoundMemoryPercentile,
		ConfidenceIntervalMemory:   c.ConfidenceIntervalMemory,
	})
}

func run(path string) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	unzipped, err := gzip.NewReader(file)
	if err != nil {
		return err
	}
	lines := bufio.NewScanner(unzipped)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fmt.Fprintln(out, "seconds,container,cpu_target,cpu_lower,cpu_upper,memory_target,memory_lower,memory_upper")
	rec := recommender()
	containers := map[string]*container{}
	lineNumber := 0
	for lines.Scan() {
		lineNumber++
		line := lines.Text()
		if lineNumber == 1 {
			if line != header {
				return fmt.Errorf("%s:1: expected the header %q", path, header)
			}
			continue
		}
		fields := strings.Split(line, ",")
		if len(fields) != 4 {
			return fmt.Errorf("%s:%d: expected 4 fields", path, lineNumber)
		}
		seconds, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, lineNumber, err)
		}
		at := time.Unix(seconds, 0).UTC()
		name := fields[1]
		c := containers[name]
		if c == nil {
			aggregate := model.NewAggregateContainerState()
			c = &container{aggregate: aggregate, state: model.NewContainerState(model.Resources{}, aggregate)}
			containers[name] = c
		}
		switch fields[2] {
		case "cpu", "mem":
			value, err := strconv.ParseFloat(fields[3], 64)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", path, lineNumber, err)
			}
			sample := model.ContainerUsageSample{MeasureStart: at, Usage: model.CPUAmountFromCores(value), Resource: model.ResourceCPU}
			if fields[2] == "mem" {
				sample = model.ContainerUsageSample{MeasureStart: at, Usage: model.MemoryAmountFromBytes(value), Resource: model.ResourceMemory}
			}
			c.state.AddSample(&sample)
		case "oom":
			request, err := strconv.ParseInt(fields[3], 10, 64)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", path, lineNumber, err)
			}
			if err := c.state.RecordOOM(at, model.ResourceAmount(request)); err != nil {
				fmt.Fprintf(out, "%d,%s,oom-discarded,,,,,\n", seconds, name)
			}
		case "est":
			merged := model.NewAggregateContainerState()
			merged.MergeContainerState(c.aggregate)
			r := rec.GetRecommendedPodResources(model.ContainerNameToAggregateStateMap{name: merged})[name]
			fmt.Fprintf(out, "%d,%s,%d,%d,%d,%d,%d,%d\n", seconds, name,
				r.Target[model.ResourceCPU], r.LowerBound[model.ResourceCPU], r.UpperBound[model.ResourceCPU],
				r.Target[model.ResourceMemory], r.LowerBound[model.ResourceMemory], r.UpperBound[model.ResourceMemory])
		default:
			return fmt.Errorf("%s:%d: unknown event kind %q", path, lineNumber, fields[2])
		}
	}
	return lines.Err()
}
