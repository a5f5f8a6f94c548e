module tailor.dev/go-x509-check

go 1.24
