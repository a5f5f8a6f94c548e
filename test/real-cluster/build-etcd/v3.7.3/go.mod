module tailor.local/real-cluster/build-etcd

go 1.26.0

require go.etcd.io/etcd/server/v3 v3.7.3
