/*
 * The picture codec the node draws with, compiled to WebAssembly by build.sh: JPEG decoding at
 * 1/8 to 8/8 of the size (libjpeg-turbo's DCT scaling), a row at a time so the caller can let
 * n8n's event loop run between rows; PNG decoding (stb_image); JPEG encoding, a row at a time.
 * One instance serves one picture and is then dropped, so a failure midway leaves nothing behind.
 *
 * Exports, all sizes and lengths in bytes or pixels:
 *   buffer_alloc(size) -> pointer             buffer_free(pointer)
 *   facts() -> pointer to FACT_COUNT int32s     the results of the last call (see FACT_*)
 *   jpeg_read_header(bytes, length)           FACT_WIDTH, FACT_HEIGHT, FACT_COMPONENTS, FACT_COLOR_SPACE, FACT_PROGRESSIVE
 *   jpeg_start(scale_eighths) -> RGB pixels   FACT_WIDTH, FACT_HEIGHT of the scaled picture
 *   jpeg_read_rows(rows) -> 1 when done       FACT_DAMAGE: the data errors the decoder went past that show
 *   png_decode(bytes, length) -> RGBA pixels  FACT_WIDTH, FACT_HEIGHT (0 and null on failure)
 *   jpeg_encode_start(width, height, quality) jpeg_encode_rows(rgb, rows) -> 1 when done
 *   jpeg_encode_finish() -> bytes             FACT_LENGTH
 * A libjpeg error calls the host's fail(code), which throws: the instance is not used again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpeglib.h"
#include "jerror.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_NO_STDIO
#define STBI_NO_HDR
#define STBI_NO_LINEAR
#define STBI_ONLY_PNG
#define STBI_NO_FAILURE_STRINGS
#include <stb/stb_image.h>

#define EXPORT(name) __attribute__((export_name(#name)))

__attribute__((import_module("host"), import_name("fail"))) void host_fail(int code);

enum { FACT_WIDTH, FACT_HEIGHT, FACT_COMPONENTS, FACT_COLOR_SPACE, FACT_PROGRESSIVE, FACT_DAMAGE, FACT_LENGTH, FACT_COUNT };
static int facts_of_last_call[FACT_COUNT];

/* A progressive JPEG can hold thousands of tiny scans, each a pass over the whole picture. */
#define MAX_SCANS 1000
/* What libjpeg may allocate for one picture (a progressive picture keeps all its coefficients). */
#define MAX_MEMORY (768L * 1024 * 1024)

static void on_error(j_common_ptr cinfo) { host_fail(cinfo->err->msg_code); }
/*
 * The data errors libjpeg goes past that leave visible damage (grey or smeared blocks). Others it
 * warns of (extraneous bytes between markers, an unknown JFIF revision, a bad ICC marker) are
 * common in cameras' pictures and change nothing drawn.
 */
static void on_message(j_common_ptr cinfo, int level) {
	if (level >= 0) return;
	switch (cinfo->err->msg_code) {
	case JWRN_HIT_MARKER:
	case JWRN_HUFF_BAD_CODE:
	case JWRN_JPEG_EOF:
	case JWRN_MUST_RESYNC:
		facts_of_last_call[FACT_DAMAGE]++;
	}
}
static void on_output(j_common_ptr cinfo) {}
static void on_progress(j_common_ptr cinfo) {
	if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > MAX_SCANS) host_fail(-1);
}

EXPORT(buffer_alloc) void *buffer_alloc(int size) { return malloc((size_t)size); }
EXPORT(buffer_free) void buffer_free(void *pointer) { free(pointer); }
EXPORT(facts) int *facts(void) { return facts_of_last_call; }

static struct jpeg_decompress_struct decoder;
static struct jpeg_error_mgr decoder_errors;
static struct jpeg_progress_mgr decoder_progress;
static unsigned char *decoded;

EXPORT(jpeg_read_header) void jpeg_read_header_of(unsigned char *bytes, int length) {
	decoder.err = jpeg_std_error(&decoder_errors);
	decoder_errors.error_exit = on_error;
	decoder_errors.emit_message = on_message;
	decoder_errors.output_message = on_output;
	jpeg_create_decompress(&decoder);
	decoder.mem->max_memory_to_use = MAX_MEMORY;
	decoder_progress.progress_monitor = on_progress;
	decoder.progress = &decoder_progress;
	jpeg_mem_src(&decoder, bytes, (unsigned long)length);
	jpeg_read_header(&decoder, TRUE);
	facts_of_last_call[FACT_WIDTH] = (int)decoder.image_width;
	facts_of_last_call[FACT_HEIGHT] = (int)decoder.image_height;
	facts_of_last_call[FACT_COMPONENTS] = decoder.num_components;
	facts_of_last_call[FACT_COLOR_SPACE] = decoder.jpeg_color_space;
	facts_of_last_call[FACT_PROGRESSIVE] = decoder.progressive_mode;
}

EXPORT(jpeg_start) unsigned char *jpeg_start(int scale_eighths) {
	decoder.out_color_space = JCS_RGB;
	decoder.scale_num = (unsigned int)scale_eighths;
	decoder.scale_denom = 8;
	// the fast integer DCT: a third less work, differences of a level or two a pixel, below what a re-encoded JPEG loses
	decoder.dct_method = JDCT_IFAST;
	jpeg_start_decompress(&decoder);
	facts_of_last_call[FACT_WIDTH] = (int)decoder.output_width;
	facts_of_last_call[FACT_HEIGHT] = (int)decoder.output_height;
	decoded = malloc((size_t)decoder.output_width * decoder.output_height * 3);
	return decoded;
}

EXPORT(jpeg_read_rows) int jpeg_read_rows(int rows) {
	while (rows-- > 0 && decoder.output_scanline < decoder.output_height) {
		JSAMPROW row = decoded + (size_t)decoder.output_scanline * decoder.output_width * 3;
		jpeg_read_scanlines(&decoder, &row, 1);
	}
	if (decoder.output_scanline < decoder.output_height) return 0;
	jpeg_finish_decompress(&decoder);
	jpeg_destroy_decompress(&decoder);
	return 1;
}

EXPORT(png_decode) unsigned char *png_decode(unsigned char *bytes, int length) {
	int width = 0, height = 0, channels = 0;
	unsigned char *pixels = stbi_load_from_memory(bytes, length, &width, &height, &channels, 4);
	facts_of_last_call[FACT_WIDTH] = pixels ? width : 0;
	facts_of_last_call[FACT_HEIGHT] = pixels ? height : 0;
	facts_of_last_call[FACT_COMPONENTS] = channels;
	return pixels;
}

static struct jpeg_compress_struct encoder;
static struct jpeg_error_mgr encoder_errors;
static unsigned char *encoded;
static unsigned long encoded_length;

EXPORT(jpeg_encode_start) void jpeg_encode_start(int width, int height, int quality) {
	encoder.err = jpeg_std_error(&encoder_errors);
	encoder_errors.error_exit = on_error;
	encoder_errors.output_message = on_output;
	jpeg_create_compress(&encoder);
	encoded = NULL;
	encoded_length = 0;
	jpeg_mem_dest(&encoder, &encoded, &encoded_length);
	encoder.image_width = (JDIMENSION)width;
	encoder.image_height = (JDIMENSION)height;
	encoder.input_components = 3;
	encoder.in_color_space = JCS_RGB;
	jpeg_set_defaults(&encoder);
	jpeg_set_quality(&encoder, quality, TRUE);
	encoder.dct_method = JDCT_IFAST;
	jpeg_start_compress(&encoder, TRUE);
}

EXPORT(jpeg_encode_rows) int jpeg_encode_rows(unsigned char *rgb, int rows) {
	while (rows-- > 0 && encoder.next_scanline < encoder.image_height) {
		JSAMPROW row = rgb + (size_t)encoder.next_scanline * encoder.image_width * 3;
		jpeg_write_scanlines(&encoder, &row, 1);
	}
	return encoder.next_scanline >= encoder.image_height;
}

EXPORT(jpeg_encode_finish) unsigned char *jpeg_encode_finish(void) {
	jpeg_finish_compress(&encoder);
	jpeg_destroy_compress(&encoder);
	facts_of_last_call[FACT_LENGTH] = (int)encoded_length;
	return encoded;
}
