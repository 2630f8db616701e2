// Bindings for mnn.cv's image codecs (csrc/ops/codecs): byte buffers in, bytearrays out, the GIL released
// while pixels are worked on. CodecError becomes ValueError; mnn.cv turns it into None or cv2.error.
#include <pybind11/stl.h>

#include <cstring>
#include <vector>

#include "ops/codecs/codecs.h"
#include "ops/codecs/inflate.h"
#include "python/bindings.h"

namespace mnn::py_bind {
namespace {

struct Bytes {
  const uint8_t* ptr;
  size_t size;
  py::buffer_info info;  // keeps the exporter's memory alive
};

Bytes bytes_of(const py::buffer& b) {
  py::buffer_info info = b.request();
  if (info.ndim != 1 && info.size > 0) {
    // Any C-contiguous buffer is taken as its bytes.
  }
  const size_t n = static_cast<size_t>(info.size) * static_cast<size_t>(info.itemsize);
  return Bytes{static_cast<const uint8_t*>(info.ptr), n, std::move(info)};
}

py::bytearray new_bytearray(size_t n) {
  PyObject* o = PyByteArray_FromStringAndSize(nullptr, static_cast<Py_ssize_t>(n));
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::bytearray>(o);
}
uint8_t* bytearray_data(py::bytearray& b) { return reinterpret_cast<uint8_t*>(PyByteArray_AS_STRING(b.ptr())); }

template <class F>
auto codec_call(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const codecs::CodecError& e) {
    throw py::value_error(e.what());
  } catch (const std::bad_alloc&) {
    throw py::value_error("image too large to decode (out of memory)");
  }
}

}  // namespace

void bind_codecs(py::module_& m) {
  m.def("jpeg_header", [](py::buffer buf) {
    Bytes b = bytes_of(buf);
    codecs::JpegHeader h = codec_call([&] { return codecs::jpeg_read_header(b.ptr, b.size); });
    return py::make_tuple(h.width, h.height, h.components, h.progressive, h.exif_offset, h.exif_size);
  });
  m.def("jpeg_decode", [](py::buffer buf, int out_channels) {
    Bytes b = bytes_of(buf);
    if (out_channels != 1 && out_channels != 3) throw py::value_error("jpeg_decode: out_channels must be 1 or 3");
    codecs::JpegHeader h = codec_call([&] { return codecs::jpeg_read_header(b.ptr, b.size); });
    py::bytearray out = new_bytearray(static_cast<size_t>(h.width) * h.height * out_channels);
    uint8_t* dst = bytearray_data(out);
    {
      py::gil_scoped_release nogil;
      codec_call([&] { codecs::jpeg_decode(b.ptr, b.size, dst, out_channels); });
    }
    return py::make_tuple(out, h.height, h.width);
  });
  m.def("jpeg_encode", [](py::buffer buf, int width, int height, int channels, int quality, int subsampling) {
    Bytes b = bytes_of(buf);
    if (b.size < static_cast<size_t>(width) * height * channels) throw py::value_error("jpeg_encode: buffer too small");
    std::vector<uint8_t> out;
    {
      py::gil_scoped_release nogil;
      out = codec_call([&] { return codecs::jpeg_encode(b.ptr, width, height, channels, quality, subsampling); });
    }
    return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
  });
  // idats: the IDAT chunks' bodies (together, one zlib stream). They are gathered into a per-thread buffer
  // that is reused from call to call: a fresh one per image costs more in page faults than the copy.
  m.def("png_decode", [](py::list idats, int width, int height, int depth, int color_type, bool interlaced,
                         py::bytes palette, py::bytes trns, int out_channels, bool out16, bool rgb_order) {
    thread_local std::vector<uint8_t> gathered;
    size_t total = 0;
    std::vector<Bytes> parts;
    parts.reserve(idats.size());
    for (const py::handle& h : idats) {
      parts.push_back(bytes_of(py::reinterpret_borrow<py::buffer>(h)));
      total += parts.back().size;
    }
    if (gathered.capacity() > (size_t(64) << 20) && total < gathered.capacity() / 4) std::vector<uint8_t>().swap(gathered);
    gathered.resize(total);
    size_t at = 0;
    for (const Bytes& part : parts) {
      if (part.size) std::memcpy(gathered.data() + at, part.ptr, part.size);
      at += part.size;
    }
    const Bytes b{gathered.data(), total, py::buffer_info()};
    std::string pal = palette, tr = trns;
    const size_t esize = (depth == 16 && out16) ? 2 : 1;
    static const int kSpp[7] = {1, 0, 3, 1, 2, 0, 4};
    if (color_type < 0 || color_type > 6 || kSpp[color_type] == 0) throw py::value_error("corrupt PNG data: bad color type");
    if (!codecs::png_stream_can_fill(b.size, codecs::png_filtered_size(width, height, depth, kSpp[color_type], interlaced)))
      throw py::value_error("corrupt PNG data: not enough image data");  // before allocating the output
    const size_t image = static_cast<size_t>(width) * height * out_channels * esize;
    const size_t capacity = codecs::png_decode_capacity(width, height, depth, color_type, interlaced, out_channels, out16);
    py::bytearray out = new_bytearray(capacity);
    uint8_t* dst = bytearray_data(out);
    {
      py::gil_scoped_release nogil;
      codec_call([&] {
        codecs::png_decode(b.ptr, b.size, width, height, depth, color_type, interlaced,
                           reinterpret_cast<const uint8_t*>(pal.data()), static_cast<int>(pal.size() / 3),
                           reinterpret_cast<const uint8_t*>(tr.data()), static_cast<int>(tr.size()), out_channels,
                           out16, rgb_order, dst, capacity);
      });
    }
    if (capacity > image && PyByteArray_Resize(out.ptr(), static_cast<Py_ssize_t>(image)) != 0)
      throw py::error_already_set();
    return out;
  });
  // The inflater alone, for tests against Python's zlib: the first out_size bytes of the stream's data.
  m.def("zlib_inflate", [](py::buffer zdata, size_t out_size) {
    Bytes b = bytes_of(zdata);
    py::bytearray out = new_bytearray(out_size);
    size_t n = 0;
    {
      py::gil_scoped_release nogil;
      n = codec_call([&] { return codecs::zlib_inflate(b.ptr, b.size, bytearray_data(out), out_size); });
    }
    if (n < out_size) PyByteArray_Resize(out.ptr(), static_cast<Py_ssize_t>(n));
    return out;
  });
  m.def("png_filter", [](py::buffer pixels, int width, int height, int channels, int depth, int filter_mask) {
    Bytes b = bytes_of(pixels);
    if (b.size < static_cast<size_t>(width) * height * channels * (depth == 16 ? 2 : 1))
      throw py::value_error("png_filter: buffer too small");
    py::bytearray out = new_bytearray(static_cast<size_t>(height) *
                                      (1 + static_cast<size_t>(width) * channels * (depth == 16 ? 2 : 1)));
    uint8_t* dst = bytearray_data(out);
    {
      py::gil_scoped_release nogil;
      codecs::png_filter(b.ptr, width, height, channels, depth, filter_mask, dst);
    }
    return out;
  });
  m.def("png_encode", [](py::buffer pixels, int width, int height, int channels, int depth, int filter_mask, int level,
                         int strategy) {
    Bytes b = bytes_of(pixels);
    if (width <= 0 || height <= 0 || (channels != 1 && channels != 3 && channels != 4) || (depth != 8 && depth != 16))
      throw py::value_error("png_encode: bad image geometry");
    if (b.size < static_cast<size_t>(width) * height * channels * (depth / 8))
      throw py::value_error("png_encode: buffer too small");
    if (!codecs::zlib_native(level, strategy)) throw py::value_error("png_encode: level/strategy not native");
    py::bytearray out = new_bytearray(codecs::png_encode_bound(width, height, channels, depth));
    uint8_t* dst = bytearray_data(out);
    size_t n;
    {
      py::gil_scoped_release nogil;
      n = codec_call([&] {
        return codecs::png_encode(b.ptr, width, height, channels, depth, filter_mask, level, strategy, dst);
      });
    }
    if (PyByteArray_Resize(out.ptr(), static_cast<Py_ssize_t>(n)) != 0) throw py::error_already_set();
    return out;
  });
  // The deflate encoder on its own, for tests over arbitrary bytes (runs, far matches, every block type).
  m.def("zlib_compress", [](py::buffer data, int level, int strategy) {
    Bytes b = bytes_of(data);
    if (!codecs::zlib_native(level, strategy)) throw py::value_error("zlib_compress: level/strategy not native");
    py::bytearray out = new_bytearray(codecs::zlib_bound(b.size));
    uint8_t* dst = bytearray_data(out);
    size_t n;
    {
      py::gil_scoped_release nogil;
      n = codec_call([&] { return codecs::zlib_compress(b.ptr, b.size, level, strategy, dst); });
    }
    if (PyByteArray_Resize(out.ptr(), static_cast<Py_ssize_t>(n)) != 0) throw py::error_already_set();
    return out;
  });
  m.def("zlib_native", &codecs::zlib_native);
  m.def("crc32", [](py::buffer data, uint32_t crc) { Bytes b = bytes_of(data); return codecs::crc32_update(crc, b.ptr, b.size); },
        py::arg("data"), py::arg("crc") = 0);
  m.def("adler32", [](py::buffer data, uint32_t adler) {
    Bytes b = bytes_of(data);
    return codecs::adler32_update(adler, b.ptr, b.size);
  }, py::arg("data"), py::arg("adler") = 1);
  m.def("palette_lookup", [](py::buffer indices, py::bytes palette, int entry) {
    Bytes b = bytes_of(indices);
    std::string pal = palette;
    py::bytearray out = new_bytearray(b.size * entry);
    uint8_t* dst = bytearray_data(out);
    {
      py::gil_scoped_release nogil;
      codecs::palette_lookup(b.ptr, b.size, reinterpret_cast<const uint8_t*>(pal.data()),
                             static_cast<int>(pal.size() / entry), entry, dst);
    }
    return out;
  });
}

}  // namespace mnn::py_bind
