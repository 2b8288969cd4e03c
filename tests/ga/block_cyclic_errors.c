/* Block-cyclic arrays given where Armada does not take them, and bad block-cyclic layouts, end
 * the job as GA_Error does, on every process, before anything moves: the message names the GA
 * function, the argument and why. argv[1] picks the case (tests/ga/CMakeLists.txt); reaching the
 * end is a failure. */
#include "ga_check.h"

#include <string.h>

static int cyclic(int type, int grid) {
  int dims[2] = {7, 6}, block[2] = {3, 2}, pg[2] = {GA_Nnodes(), 1};
  const int g = GA_Create_handle();
  NGA_Set_data(g, 2, dims, type);
  if (grid)
    NGA_Set_block_cyclic_proc_grid(g, block, pg);
  else
    NGA_Set_block_cyclic(g, block);
  GA_Allocate(g);
  return g;
}

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  const char* which = argc > 1 ? argv[1] : "";
  int dims[2] = {7, 6}, sub[2] = {0, 0}, index[2] = {0, 0}, len, ld[1];
  double value;
  void* p;
  if (!strcmp(which, "read_inc")) {
    NGA_Read_inc(cyclic(C_DBL, 0), sub, 1); /* a block-cyclic counter must be C_INT or C_LONG too */
  } else if (!strcmp(which, "select")) {
    NGA_Select_elem(cyclic(C_DBL, 1), "mean", &value, sub);
  } else if (!strcmp(which, "access")) {
    int hi[2] = {0, 0};
    NGA_Access(cyclic(C_DBL, 0), sub, hi, &p, ld);
  } else if (!strcmp(which, "second")) {
    const int r = NGA_Create(C_DBL, 2, dims, "regular", NULL);
    GA_Compare_distr(r, cyclic(C_DBL, 0));
  } else if (!strcmp(which, "zero_block")) {
    int block[2] = {3, 0};
    const int g = GA_Create_handle();
    NGA_Set_data(g, 2, dims, C_DBL);
    NGA_Set_block_cyclic(g, block);
  } else if (!strcmp(which, "negative_block")) {
    int block[2] = {-2, 2}, pg[2] = {1, 1};
    const int g = GA_Create_handle();
    GA_Set_data(g, 2, dims, C_DBL);
    GA_Set_block_cyclic_proc_grid(g, block, pg);
  } else if (!strcmp(which, "grid_product")) {
    int block[2] = {2, 2}, pg[2] = {GA_Nnodes(), 3};
    const int g = GA_Create_handle();
    GA_Set_data(g, 2, dims, C_DBL);
    GA_Set_block_cyclic_proc_grid(g, block, pg);
    GA_Allocate(g);
  } else if (!strcmp(which, "not_owner")) {
    const int g = cyclic(C_DBL, 0);
    if (GA_Nodeid() == 0) NGA_Access_block(g, 1, &p, ld); /* block 1 is process 1's */
    GA_Sync();
    if (GA_Nodeid() == 0) return 3;
    MPI_Barrier(MPI_COMM_WORLD); /* the others wait for process 0's abort */
  } else if (!strcmp(which, "grid_access")) {
    NGA_Access_block_grid(cyclic(C_DBL, 0), index, &p, ld);
  } else if (!strcmp(which, "segment")) {
    NGA_Access_block_segment(cyclic(C_DBL, 0), GA_Nodeid(), &p, &len);
  } else if (!strcmp(which, "block_info")) {
    int nb[2], bd[2];
    NGA_Get_block_info(NGA_Create(C_DBL, 2, dims, "regular", NULL), nb, bd);
  } else if (!strcmp(which, "distribution")) {
    int lo[2], hi[2];
    NGA_Distribution(cyclic(C_DBL, 0), 9, lo, hi);
  } else if (!strcmp(which, "redata")) {
    int block[2] = {3, 2}, dims3[3] = {4, 4, 4};
    const int g = GA_Create_handle();
    NGA_Set_data(g, 2, dims, C_DBL);
    NGA_Set_block_cyclic(g, block);
    NGA_Set_data(g, 3, dims3, C_DBL); /* the layout was set for 2 dimensions */
    GA_Allocate(g);
  } else if (!strcmp(which, "ghosts")) {
    int block[2] = {3, 2}, width[2] = {0, 1};
    const int g = GA_Create_handle();
    NGA_Set_data(g, 2, dims, C_DBL);
    GA_Set_ghosts(g, width);
    NGA_Set_block_cyclic(g, block);
    GA_Allocate(g);
  } else if (!strcmp(which, "deallocate")) {
    GA_Deallocate(cyclic(C_DBL, 1));
  }
  fprintf(stderr, "block_cyclic_errors: case '%s' returned\n", which);
  ga_finish("block_cyclic_errors");
  return 3;
}
