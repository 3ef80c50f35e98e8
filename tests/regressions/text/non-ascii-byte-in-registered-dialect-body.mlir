module attributes{q= #omp<{{<#r.E-«>}
}
>} {}

