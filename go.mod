module github.com/smokestack/smokestack

go 1.26.8
