module attributes{o= #omp.<{s<{<!r<>//>}>
}>}{}