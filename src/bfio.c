/*
 * bfio.c
 *		Text and binary I/O helpers shared by the four filter types: the
 *		common part of the text form (type name, version, hash, seed, insert
 *		counter), its key=value fields and base64 payload, and the binary
 *		send/recv form (the datum's bytes as they are).
 */
#include "bloomfilter.h"

#include <math.h>

#include "common/shortest_dec.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"

/* ---------------------------------------------------------------------
 * base64 (RFC 4648, with padding; strict on input)
 * ---------------------------------------------------------------------
 */
static const char bf_b64_chars[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Length of the base64 encoding of len bytes */
Size
BfBase64EncodedLen(Size len)
{
	return ((len + 2) / 3) * 4;
}

/* Encode len bytes into dst (BfBase64EncodedLen(len) bytes); returns length */
Size
BfBase64Encode(const uint8 *src, Size len, char *dst)
{
	char	   *p = dst;
	Size		i;
	uint32		tick = 0;

	for (i = 0; i + 3 <= len; i += 3)
	{
		uint32		v = ((uint32) src[i] << 16) | ((uint32) src[i + 1] << 8) | src[i + 2];

		/* a filter of hundreds of MB takes seconds: every 3 MB */
		if (++tick == 1 << 20)
		{
			tick = 0;
			CHECK_FOR_INTERRUPTS();
		}

		*p++ = bf_b64_chars[(v >> 18) & 63];
		*p++ = bf_b64_chars[(v >> 12) & 63];
		*p++ = bf_b64_chars[(v >> 6) & 63];
		*p++ = bf_b64_chars[v & 63];
	}
	if (len - i == 1)
	{
		uint32		v = (uint32) src[i] << 16;

		*p++ = bf_b64_chars[(v >> 18) & 63];
		*p++ = bf_b64_chars[(v >> 12) & 63];
		*p++ = '=';
		*p++ = '=';
	}
	else if (len - i == 2)
	{
		uint32		v = ((uint32) src[i] << 16) | ((uint32) src[i + 1] << 8);

		*p++ = bf_b64_chars[(v >> 18) & 63];
		*p++ = bf_b64_chars[(v >> 12) & 63];
		*p++ = bf_b64_chars[(v >> 6) & 63];
		*p++ = '=';
	}
	return p - dst;
}

/* Value of one base64 character, or -1 */
static inline int
BfBase64Value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Decode exactly dstlen bytes from srclen base64 characters.  Returns false
 * if the text is not the canonical encoding of exactly dstlen bytes.
 */
bool
BfBase64Decode(const char *src, Size srclen, uint8 *dst, Size dstlen)
{
	Size		i,
				o = 0;
	uint32		tick = 0;

	if (srclen != BfBase64EncodedLen(dstlen))
		return false;
	for (i = 0; i < srclen; i += 4)
	{
		int			a = BfBase64Value(src[i]),
					b = BfBase64Value(src[i + 1]),
					c,
					d;
		uint32		v;

		/* every 3 MB decoded */
		if (++tick == 1 << 20)
		{
			tick = 0;
			CHECK_FOR_INTERRUPTS();
		}

		if (a < 0 || b < 0)
			return false;
		if (i + 4 == srclen && src[i + 2] == '=')
		{
			/* one byte left: "xx==" with no stray low bits */
			if (src[i + 3] != '=' || dstlen - o != 1 || (b & 15) != 0)
				return false;
			dst[o++] = (uint8) ((a << 2) | (b >> 4));
			break;
		}
		c = BfBase64Value(src[i + 2]);
		if (c < 0)
			return false;
		if (i + 4 == srclen && src[i + 3] == '=')
		{
			if (dstlen - o != 2 || (c & 3) != 0)
				return false;
			v = ((uint32) a << 18) | ((uint32) b << 12) | ((uint32) c << 6);
			dst[o++] = (uint8) (v >> 16);
			dst[o++] = (uint8) (v >> 8);
			break;
		}
		d = BfBase64Value(src[i + 3]);
		if (d < 0 || dstlen - o < 3)
			return false;
		v = ((uint32) a << 18) | ((uint32) b << 12) | ((uint32) c << 6) | (uint32) d;
		dst[o++] = (uint8) (v >> 16);
		dst[o++] = (uint8) (v >> 8);
		dst[o++] = (uint8) v;
	}
	return o == dstlen;
}

/* ---------------------------------------------------------------------
 * Text I/O
 * ---------------------------------------------------------------------
 */

/* Write "<typname> v<version> hash=xxh3 seed=S inserts=N" */
void
BfTextBegin(StringInfo buf, const char *typname, const BfHeader *h)
{
	appendStringInfo(buf, "%s v%d hash=xxh3 seed=" INT64_FORMAT " inserts=" UINT64_FORMAT,
					 typname, (int) h->version,
					 (int64) BfGet64(h->seed), BfGet64(h->ninserts));
}

/* Append " name=<base64 of data>" */
void
BfTextPayload(StringInfo buf, const char *name, const void *data, Size len)
{
	Size		enclen = BfBase64EncodedLen(len);

	appendStringInfo(buf, " %s=", name);
	enlargeStringInfo(buf, enclen + 1);
	buf->len += BfBase64Encode(data, len, buf->data + buf->len);
	buf->data[buf->len] = '\0';
}

/* Find the index of a key, or -1 */
static int
BfTextFind(BfTextFields *f, const char *key)
{
	int			i;

	for (i = 0; i < f->nfields; i++)
		if (strcmp(f->keys[i], key) == 0)
			return i;
	return -1;
}

/* Whether the text form has a key (a type whose keys depend on its variant) */
bool
BfTextHas(BfTextFields *f, const char *key)
{
	return BfTextFind(f, key) >= 0;
}

/* Malformed-text error with a detail */
static void
BfTextError(BfTextFields *f, const char *detail, const char *arg)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for type %s", f->typname),
			 errdetail(detail, arg),
			 errhint("The text form is \"%s v%d hash=xxh3 seed=... inserts=... <parameters> data=<base64>\", as %s output writes it.",
					 f->typname, BF_FORMAT_VERSION, f->typname)));
}

/*
 * Split the text form into key=value fields and check the common part:
 * type name, version, hash algorithm, seed and insert counter.
 */
void
BfTextParse(const char *typname, const char *str, BfTextFields *f)
{
	char	   *s = pstrdup(str);
	char	   *tok;
	char	   *save = NULL;
	int			ntok = 0;

	memset(f, 0, sizeof(*f));
	f->typname = typname;

	for (tok = strtok_r(s, " \t\n\r", &save); tok; tok = strtok_r(NULL, " \t\n\r", &save))
	{
		if (ntok == 0)
		{
			if (strcmp(tok, typname) != 0 &&
				(strcmp(tok, "bloom") == 0 || strcmp(tok, "countingbloom") == 0 ||
				 strcmp(tok, "quotientfilter") == 0 || strcmp(tok, "cuckoofilter") == 0))
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s", typname),
						 errdetail("The value is the text form of a %s, not of a %s.", tok, typname),
						 strcmp(tok, "countingbloom") == 0 && strcmp(typname, "bloom") == 0 ?
						 errhint("Read it as a countingbloom and cast that to bloom: value::countingbloom::bloom.") :
						 errhint("Read it as a %s: value::%s.", tok, tok)));
			if (strcmp(tok, typname) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s", typname),
						 errdetail("The value must start with \"%s\".", typname),
						 errhint("To probe for or add a string literal, cast it: %s @> 'abc'::text.",
								 "filter")));
		}
		else if (ntok == 1)
		{
			if (tok[0] != 'v' || strspn(tok + 1, "0123456789") != strlen(tok + 1) || tok[1] == '\0')
				BfTextError(f, "Expected a format version such as \"v" CppAsString2(BF_FORMAT_VERSION) "\", found \"%s\".", tok);
			if (strcmp(tok + 1, CppAsString2(BF_FORMAT_VERSION)) != 0)
				BfTextError(f, "Format version \"%s\" is not supported by this version of the extension.", tok);
		}
		else
		{
			char	   *eq = strchr(tok, '=');

			if (eq == NULL || eq == tok)
				BfTextError(f, "Expected key=value, found \"%s\".", tok);
			*eq = '\0';
			if (BfTextFind(f, tok) >= 0)
				BfTextError(f, "Key \"%s\" appears more than once.", tok);
			if (f->nfields >= BF_TEXT_MAX_FIELDS)
				BfTextError(f, "Too many fields, at \"%s\".", tok);
			f->keys[f->nfields] = tok;
			f->values[f->nfields] = eq + 1;
			f->nfields++;
		}
		ntok++;
	}
	if (ntok < 2)
		BfTextError(f, "The value is truncated after \"%s\".", ntok == 0 ? "" : typname);

	{
		int			i = BfTextFind(f, "hash");

		if (i < 0)
			BfTextError(f, "Key \"%s\" is missing.", "hash");
		if (strcmp(f->values[i], "xxh3") != 0)
			BfTextError(f, "Hash algorithm \"%s\" is not supported.", f->values[i]);
		f->used[i] = true;
	}
	f->seed = (uint64) BfTextGetUInt64(f, "seed", 0, PG_UINT64_MAX);
	f->ninserts = BfTextGetUInt64(f, "inserts", 0, PG_UINT64_MAX);
}

/*
 * Integer field.  "seed" is read as a signed int64 (as SQL shows it) and
 * returned as its bit pattern; other keys are unsigned within [min, max].
 * Numbers are taken only as output writes them (no sign but a leading '-'
 * on the seed, no leading zeros), so that one value has one text form.
 */
uint64
BfTextGetUInt64(BfTextFields *f, const char *key, uint64 min, uint64 max)
{
	int			i = BfTextFind(f, key);
	const char *v;
	char	   *end;
	uint64		r;

	if (i < 0)
		BfTextError(f, "Key \"%s\" is missing.", key);
	f->used[i] = true;
	v = f->values[i];
	errno = 0;
	if (strcmp(key, "seed") == 0)
	{
		long long	sv = strtoll(v, &end, 10);
		char		canon[32];

		if (errno != 0 || end == v || *end != '\0')
			BfTextError(f, "Invalid seed \"%s\".", v);
		snprintf(canon, sizeof(canon), INT64_FORMAT, (int64) sv);
		if (strcmp(canon, v) != 0)
			BfTextError(f, "%s", psprintf("Seed \"%s\" is not written as output writes it (%s).", v, canon));
		return (uint64) (int64) sv;
	}
	if (*v < '0' || *v > '9')
		BfTextError(f, "Invalid number \"%s\".", v);
	if (v[0] == '0' && v[1] != '\0')
		BfTextError(f, "Number \"%s\" has leading zeros.", v);
	r = (uint64) strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0')
		BfTextError(f, "Invalid number \"%s\".", v);
	if (r < min || r > max)
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "%s=%s is out of range [" UINT64_FORMAT ", " UINT64_FORMAT "].",
				 key, v, min, max);
		BfTextError(f, "%s", msg);
	}
	return r;
}

/* Floating-point field within [min, max], in the form output writes */
double
BfTextGetFloat8(BfTextFields *f, const char *key, double min, double max)
{
	int			i = BfTextFind(f, key);
	char	   *end;
	double		r;
	char		canon[DOUBLE_SHORTEST_DECIMAL_LEN];

	if (i < 0)
		BfTextError(f, "Key \"%s\" is missing.", key);
	f->used[i] = true;
	errno = 0;
	r = strtod(f->values[i], &end);
	if (errno != 0 || end == f->values[i] || *end != '\0' || isnan(r) || r < min || r > max)
		BfTextError(f, "Invalid or out-of-range number \"%s\".", f->values[i]);
	/* as output writes it: the shortest decimal that reads back as r */
	double_to_shortest_decimal_buf(r, canon);
	if (strcmp(canon, f->values[i]) != 0)
		BfTextError(f, "%s", psprintf("Number \"%s\" is not written as output writes it (%s).",
									  f->values[i], canon));
	return r;
}

/* Decode a base64 field that must hold exactly expected_len bytes */
char *
BfTextGetPayload(BfTextFields *f, const char *key, Size expected_len)
{
	int			i = BfTextFind(f, key);
	char	   *out;

	if (i < 0)
		BfTextError(f, "Key \"%s\" is missing.", key);
	f->used[i] = true;
	if (strlen(f->values[i]) != BfBase64EncodedLen(expected_len))
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "%zu", expected_len);
		BfTextError(f, "The data field is not valid base64 of exactly %s bytes.", msg);
	}
	out = palloc(expected_len + 1);
	if (!BfBase64Decode(f->values[i], strlen(f->values[i]), (uint8 *) out, expected_len))
	{
		char		msg[128];

		snprintf(msg, sizeof(msg), "%zu", expected_len);
		BfTextError(f, "The data field is not valid base64 of exactly %s bytes.", msg);
	}
	return out;
}

/* Refuse fields that were not asked for */
void
BfTextFinish(BfTextFields *f)
{
	int			i;

	for (i = 0; i < f->nfields; i++)
		if (!f->used[i])
			BfTextError(f, "Unknown key \"%s\".", f->keys[i]);
}

/* ---------------------------------------------------------------------
 * Binary I/O
 * ---------------------------------------------------------------------
 */

/* send: the datum's bytes after the length word */
bytea *
BfSend(const struct varlena *v)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, VARDATA(v), VARSIZE(v) - VARHDRSZ);
	return pq_endtypsend(&buf);
}

/* recv: a new datum from the remaining bytes; the caller validates it */
struct varlena *
BfRecv(StringInfo buf)
{
	int			len = buf->len - buf->cursor;
	struct varlena *v;

	if (len < 0 || (Size) len > BF_MAX_DATUM_SIZE - VARHDRSZ)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid binary filter value"),
				 errdetail("The value is %d bytes long, more than the largest filter.", len),
				 errhint("Use a value produced by the send function of this extension.")));
	v = palloc(len + VARHDRSZ);
	SET_VARSIZE(v, len + VARHDRSZ);
	pq_copymsgbytes(buf, VARDATA(v), len);
	return v;
}
