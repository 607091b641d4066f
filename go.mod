module github.com/gametune/gametune

go 1.26
