module tailor.local/cortex/build

go 1.25.0

require github.com/cortexproject/cortex v1.21.1

// The replace and exclude directives of Cortex v1.21.1's own go.mod, copied: a dependency's
// replaces do not apply to the module that requires it.
// Using cortex fork of weaveworks/common
replace github.com/weaveworks/common => github.com/cortexproject/weaveworks-common v0.0.0-20250902164925-0315015a8b9f

// Override since git.apache.org is down.  The docs say to fetch from github.
replace git.apache.org/thrift.git => github.com/apache/thrift v0.0.0-20180902110319-2566ecd5d999

// Use fork of gocql that has gokit logs and Prometheus metrics.
replace github.com/gocql/gocql => github.com/grafana/gocql v0.0.0-20200605141915-ba5dc39ece85

// Replace memberlist with Grafana's fork which includes some fixes that haven't been merged upstream yet
replace github.com/hashicorp/memberlist => github.com/grafana/memberlist v0.3.1-0.20220714140823-09ffed8adbbe

// Same version being used by thanos
replace github.com/vimeo/galaxycache => github.com/thanos-community/galaxycache v0.0.0-20211122094458-3a32041a1f1e

// v0.20.5 caused go mod checksum error
replace github.com/go-openapi/spec => github.com/go-openapi/spec v0.20.6

// the v6.0.5851 Prometheus depends on doesn't seem to exist anymore?
replace github.com/ionos-cloud/sdk-go/v6 => github.com/ionos-cloud/sdk-go/v6 v6.0.4

replace github.com/google/gnostic => github.com/googleapis/gnostic v0.6.9

// Same replace used by thanos: (may be removed in the future)
// https://github.com/thanos-io/thanos/blob/fdeea3917591fc363a329cbe23af37c6fff0b5f0/go.mod#L265
replace gopkg.in/alecthomas/kingpin.v2 => github.com/alecthomas/kingpin v1.3.8-0.20210301060133-17f40c25f497

// Wait for fix for https://github.com/grpc/grpc-go/pull/8504.
replace google.golang.org/grpc => google.golang.org/grpc v1.71.2

// See https://github.com/envoyproxy/go-control-plane/issues/1083 as this version introduces checksum mismatch.
exclude github.com/envoyproxy/go-control-plane/envoy v1.32.3

// Required by Prometheus v0.308+ config package for OTLP translation strategy types.
replace github.com/prometheus/otlptranslator => github.com/prometheus/otlptranslator v1.0.0
