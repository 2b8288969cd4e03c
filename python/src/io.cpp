// armada.save, load, load_patch, list_datasets, checkpoint, restart, latest_checkpoint: the HDF5
// I/O of armada::arrays (docs/io.md) from Python. Each call is collective, as its C++ function
// is; the binding converts its arguments first and agrees on the outcome with the group the call
// runs on, so a bad argument raises on every member instead of leaving the others in a collective.
// Files are str or os.PathLike; the file checks and their errors are arrays' own.
#include "armada/arrays/io.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"

namespace armada::python {

namespace {

// A file argument: str or os.PathLike (os.fspath), never bytes.
std::string path_of(py::handle file, const char* op, const char* argument = "file") {
  py::object text;
  try {
    text = py::module_::import("os").attr("fspath")(file);
  } catch (py::error_already_set&) {
    fail(ErrorKind::type, op, argument, repr_of(file), "must be a str or os.PathLike");
  }
  if (!py::isinstance<py::str>(text))
    fail(ErrorKind::type, op, argument, repr_of(file), "must name the file as a str, not bytes");
  return text.cast<std::string>();
}

// What every call starts with: the runtime is up and its file (or prefix) is a path.
struct IoCall {
  IoCall(const char* op_, py::handle file, const char* argument = "file") : op(op_) {
    require_runtime(op);
    path = path_of(file, op, argument);
  }
  const char* op;
  std::string path;
};

std::string name_of(py::handle name, const char* op, const char* argument) {
  if (!py::isinstance<py::str>(name)) fail(ErrorKind::type, op, argument, repr_of(name), "must be a str");
  return name.cast<std::string>();
}

// The arrays of save/checkpoint/restart: one GlobalArray or an iterable of them (a dict gives its
// values); each live. Every member passes the same objects, so the outcome is the same everywhere.
std::vector<Array> arrays_of(py::handle value, const char* op) {
  std::vector<Array> out;
  auto take = [&](py::handle item) {
    if (!py::isinstance<Array>(item))
      fail(ErrorKind::type, op, "arrays", repr_of(value),
           "must be a GlobalArray or a sequence of them, not holding " + repr_of(py::type::handle_of(item)));
    out.push_back(live(item.cast<Array&>(), op));
  };
  if (py::isinstance<Array>(value)) {
    take(value);
  } else if (py::isinstance<py::dict>(value)) {
    for (auto item : value.cast<py::dict>()) take(item.second);
  } else if (py::isinstance<py::iterable>(value) && !py::isinstance<py::str>(value)) {
    for (py::handle item : py::iter(value)) take(item);
  } else {
    fail(ErrorKind::type, op, "arrays", repr_of(value), "must be a GlobalArray or a sequence of them");
  }
  if (out.empty()) fail(ErrorKind::value, op, "arrays", repr_of(value), "names no array");
  return out;
}

// Runs a collective I/O call without the GIL.
template <class F>
decltype(auto) unlocked(F&& f) {
  py::gil_scoped_release released;
  return f();
}

// Runs f, a read of `path`; an OS error of arrays' becomes FileNotFoundError or PermissionError
// (armada.NoSuchFileError, armada.FilePermissionError) when this rank's own look at the file
// says why. Every member of the call raised already (arrays agreed); each classifies alone.
template <class F>
decltype(auto) reading(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const rma::SystemError& e) {
    struct stat st{};
    const bool missing = ::stat(path.c_str(), &st) != 0;
    const int why = missing ? errno : ::access(path.c_str(), R_OK) != 0 ? errno : 0;
    if (why == ENOENT || why == ENOTDIR) throw BindingError(ErrorKind::not_found, e.what());
    if (why == EACCES || why == EPERM) throw BindingError(ErrorKind::permission, e.what());
    throw;
  }
}

// The distribution keywords of load/load_patch: none may come with `into`.
struct LoadArgs {
  py::handle into, group;
  DistributionArgs distribution;
  bool any_distribution() const {
    const DistributionArgs& d = distribution;
    return !(d.chunks.is_none() && d.ghosts.is_none() && d.name.is_none() && d.grid.is_none() &&
             d.block_starts.is_none() && group.is_none());
  }
};

// The options of a new array loaded on group `g` (nullopt: the world) from the keywords.
arrays::ArrayOptions new_array_options(const char* op, const LoadArgs& args, const std::string& file,
                                       const std::string& dataset, const std::optional<rma::Group>& g) {
  arrays::ArrayOptions o;
  o.group = g;
  const rma::Group& group = g ? *g : rma::Group::world();
  int ndims = 0;
  if (PyIndex_Check(args.distribution.ghosts.ptr())) {  // one width for every dimension of the dataset
    py::gil_scoped_release released;
    for (const auto& info : arrays::list(file, group))
      if (info.name == dataset) ndims = info.dims.size();
  }
  agreed(op, group, [&] { distribution_options(op, args.distribution, ndims, o); });
  return o;
}

Array* into_of(const char* op, const LoadArgs& args) {
  if (args.into.is_none()) return nullptr;
  if (!py::isinstance<Array>(args.into))
    fail(ErrorKind::type, op, "into", repr_of(args.into), "must be a GlobalArray or None");
  if (args.any_distribution())
    fail(ErrorKind::value, op, "into", describe(args.into.cast<Array&>()),
         "comes with its own distribution and group: give no chunks, ghosts, name, grid, block_starts or group");
  return &live(args.into.cast<Array&>(), op);
}

py::object load(py::handle file, py::handle dataset, const LoadArgs& args) {
  const IoCall c("armada.load", file);
  const std::string name = name_of(dataset, c.op, "dataset");
  return reading(c.path, [&] {
    if (Array* into = into_of(c.op, args)) {
      unlocked([&] { arrays::load(c.path, name, *into); });
      return py::reinterpret_borrow<py::object>(args.into);
    }
    const arrays::ArrayOptions o = new_array_options(c.op, args, c.path, name, optional_group(c.op, args.group));
    return py::cast(unlocked([&] { return arrays::load(c.path, name, o); }));
  });
}

// The patch of load_patch: lo and hi, or (hi None) an index of the dataset's shape, slices and
// integers with step 1 (an integer i keeps its dimension as [i, i + 1)).
std::pair<Coord, Coord> patch_of(const char* op, py::handle lo, py::handle hi, const Coord& dims) {
  if (!hi.is_none()) return {coord_of(lo, op, "lo"), coord_of(hi, op, "hi")};
  py::tuple entries = PyTuple_Check(lo.ptr()) ? py::reinterpret_borrow<py::tuple>(lo) : py::make_tuple(lo);
  if (static_cast<int>(entries.size()) > dims.size())
    fail(ErrorKind::index, op, "index", repr_of(lo), "has more entries than the dataset's " + std::to_string(dims.size()) +
                                                         " dimensions");
  Coord l = Coord::filled(dims.size(), 0), h = dims;
  for (std::size_t d = 0; d < entries.size(); ++d) {
    const Index n = dims[static_cast<int>(d)];
    py::handle e = entries[d];
    if (PyIndex_Check(e.ptr()) && !PyBool_Check(e.ptr())) {
      Index i = e.cast<Index>();
      if (i < 0) i += n;
      if (i < 0 || i >= n)
        fail(ErrorKind::index, op, "index", repr_of(lo), "index " + repr_of(e) + " is out of bounds for dimension " +
                                                             std::to_string(d) + " of size " + std::to_string(n));
      l[static_cast<int>(d)] = i, h[static_cast<int>(d)] = i + 1;
      continue;
    }
    if (!PySlice_Check(e.ptr()))
      fail(ErrorKind::type, op, "index", repr_of(lo), "entries must be integers or slices (or give lo and hi)");
    Py_ssize_t start = 0, stop = 0, step = 0;
    if (PySlice_Unpack(e.ptr(), &start, &stop, &step) < 0 || step != 1) {
      PyErr_Clear();
      fail(ErrorKind::value, op, "index", repr_of(lo), "a patch is a box: slices take no step");
    }
    PySlice_AdjustIndices(n, &start, &stop, step);
    l[static_cast<int>(d)] = start, h[static_cast<int>(d)] = stop;
  }
  return {l, h};
}

py::object load_patch(py::handle file, py::handle dataset, py::handle lo, py::handle hi, const LoadArgs& args) {
  constexpr const char* op = "armada.load_patch";
  require_runtime(op);
  const std::string path = path_of(file, op), name = name_of(dataset, op, "dataset");
  return reading(path, [&] {
    Array* into = into_of(op, args);
    const std::optional<rma::Group> g = into ? std::optional(into->group()) : optional_group(op, args.group);
    const rma::Group& group = g ? *g : rma::Group::world();
    Coord dims;
    if (hi.is_none()) {  // an index: the dataset's shape gives the open ends
      const auto infos = unlocked([&] { return arrays::list(path, group); });
      for (const auto& info : infos)
        if (info.name == name) dims = info.dims;
      if (dims.empty())
        fail(ErrorKind::value, op, "dataset", repr_of(dataset), "is not an array dataset of '" + path + "'");
    }
    Coord l, h;
    agreed(op, group, [&] { std::tie(l, h) = patch_of(op, lo, hi, dims); });
    if (into) {
      unlocked([&] { arrays::load_patch(path, name, l, h, *into); });
      return py::reinterpret_borrow<py::object>(args.into);
    }
    const arrays::ArrayOptions o = new_array_options(op, args, path, name, g);
    return py::cast(unlocked([&] { return arrays::load_patch(path, name, l, h, o); }));
  });
}

py::object step_or_none(const std::optional<long>& step) { return step ? py::object(py::int_(*step)) : py::none(); }

rma::Group group_or_world(const char* op, py::handle group) {
  const std::optional<rma::Group> g = optional_group(op, group);
  return g ? *g : rma::Group::world();
}

void bind_dataset_info(py::module_& m) {
  using arrays::DatasetInfo;
  py::class_<DatasetInfo>(m, "DatasetInfo", "What a dataset of an HDF5 file holds (armada.list_datasets).")
      .def_readonly("name", &DatasetInfo::name)
      .def_property_readonly("dtype", [](const DatasetInfo& i) { return dtype_of(i.type); })
      .def_property_readonly("shape", [](const DatasetInfo& i) { return to_tuple(i.dims); })
      .def_property_readonly("ghosts", [](const DatasetInfo& i) { return to_tuple(i.ghosts); },
                             "The ghost widths it was written with.")
      .def_property_readonly("block_starts", [](const DatasetInfo& i) {
        py::list starts;
        for (const auto& s : i.block_starts) starts.append(to_tuple(Coord(s)));
        return starts;
      }, "The distribution it was written with: each dimension's block starts (empty if unknown).")
      .def_readonly("group_size", &DatasetInfo::group_size, "The group size it was written with (0 if unknown).")
      .def_readonly("armada_version", &DatasetInfo::armada_version, "Empty for a dataset Armada did not write.")
      .def("__repr__", [](const DatasetInfo& i) {
        return "DatasetInfo(name=" + repr_of(py::str(i.name)) + ", dtype=" + dtype_name(i.type) + ", shape=" +
               tuple_str(i.dims) + ")";
      });
}

}  // namespace

void bind_io(py::module_& m) {
  bind_dataset_info(m);
  m.def("io_available", &arrays::io_available, "True if Armada was built with parallel HDF5.");
  m.def("save", [](py::handle file, py::handle arrays, bool in_place) {
    const IoCall c("armada.save", file);
    const std::vector<Array> list = arrays_of(arrays, c.op);
    unlocked([&] { arrays::save(c.path, list, in_place ? arrays::SaveMode::in_place : arrays::SaveMode::replace); });
  }, py::arg("file"), py::arg("arrays"), py::kw_only(), py::arg("in_place") = false,
        "Writes the arrays (one GlobalArray or a sequence; one group) to HDF5 file `file`, one dataset per array "
        "named after it, replacing the file once the new one is complete; with in_place=True a file holding "
        "exactly these datasets is rewritten where it lies (faster, not all-or-nothing). Collective over the "
        "arrays' group.");
  m.def("list_datasets", [](py::handle file, py::handle group) {
    const IoCall c("armada.list_datasets", file);
    const rma::Group g = group_or_world(c.op, group);
    return reading(c.path, [&] { return unlocked([&] { return arrays::list(c.path, g); }); });
  }, py::arg("file"), py::arg("group") = py::none(),
        "The array datasets of `file` (DatasetInfo: name, dtype, shape, ghosts, block_starts, ...). Collective over "
        "`group` (default: every rank).");
  m.def("load", [](py::handle file, py::handle dataset, py::handle into, py::handle chunks, py::handle ghosts,
                   py::handle group, py::handle name, py::handle grid, py::handle block_starts) {
    return load(file, dataset, {into, group, {chunks, ghosts, name, grid, block_starts}});
  }, py::arg("file"), py::arg("dataset"), py::kw_only(), py::arg("into") = py::none(), py::arg("chunks") = py::none(),
        py::arg("ghosts") = py::none(), py::arg("group") = py::none(), py::arg("name") = py::none(),
        py::arg("grid") = py::none(), py::arg("block_starts") = py::none(),
        "Dataset `dataset` of `file` as a new GlobalArray (its dtype and shape from the file, the distribution "
        "from the keywords as in GlobalArray.create; ghosts default to those it was saved with), or into the "
        "existing array `into` (same shape and dtype), which is returned. Collective over the group.");
  m.def("load_patch", [](py::handle file, py::handle dataset, py::handle lo, py::handle hi, py::handle into,
                         py::handle chunks, py::handle ghosts, py::handle group, py::handle name, py::handle grid,
                         py::handle block_starts) {
    return load_patch(file, dataset, lo, hi, {into, group, {chunks, ghosts, name, grid, block_starts}});
  }, py::arg("file"), py::arg("dataset"), py::arg("lo"), py::arg("hi") = py::none(), py::kw_only(),
        py::arg("into") = py::none(), py::arg("chunks") = py::none(), py::arg("ghosts") = py::none(),
        py::arg("group") = py::none(), py::arg("name") = py::none(), py::arg("grid") = py::none(),
        py::arg("block_starts") = py::none(),
        "Patch [lo, hi) of dataset `dataset` as a new GlobalArray of shape hi - lo (or into `into`). Instead of lo "
        "and hi, an index of slices and integers: load_patch(f, 'u', numpy.s_[10:20, :]). Collective.");
  m.def("checkpoint", [](py::handle prefix, long step, py::handle arrays, int keep) {
    const IoCall c("armada.checkpoint", prefix, "prefix");
    const std::vector<Array> list = arrays_of(arrays, c.op);
    unlocked([&] { arrays::checkpoint(c.path, step, list, keep); });
  }, py::arg("prefix"), py::arg("step"), py::arg("arrays"), py::arg("keep") = 2,
        "Writes checkpoint `step` of the arrays as '<prefix>.<step>.h5', complete or absent, then removes older "
        "checkpoints but the keep - 1 newest. Collective over the arrays' group.");
  m.def("restart", [](py::handle prefix, py::handle arrays) {
    const IoCall c("armada.restart", prefix, "prefix");
    std::vector<Array> list = arrays_of(arrays, c.op);
    return step_or_none(unlocked([&] { return arrays::restart(c.path, list); }));
  }, py::arg("prefix"), py::arg("arrays"),
        "Loads the arrays from the newest complete checkpoint of `prefix` (datasets named after them) and returns "
        "its step, or returns None (arrays untouched) when there is none. Collective over the arrays' group.");
  m.def("latest_checkpoint", [](py::handle prefix, py::handle group) {
    const IoCall c("armada.latest_checkpoint", prefix, "prefix");
    const rma::Group g = group_or_world(c.op, group);
    return step_or_none(unlocked([&] { return arrays::latest_checkpoint(c.path, g); }));
  }, py::arg("prefix"), py::arg("group") = py::none(),
        "The step of the newest complete checkpoint of `prefix`, or None. Collective over `group`.");
}

}  // namespace armada::python
