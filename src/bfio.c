/*
 * bfio.c
 *		Text and binary I/O helpers shared by the four filter types: the
 *		common part of the text form (type name, version, hash, seed, insert
 *		counter), its key=value fields and base64 payload, and the binary
 *		send/recv form (the datum's bytes as they are).
 */
#include "bloomfilter.h"

#include <math.h>

#include "common/base64.h"
#include "common/shortest_dec.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"

/* ---------------------------------------------------------------------
 * base64 (RFC 4648, with padding; strict on input): PostgreSQL's own
 * (common/base64.h), in chunks, so that a filter of hundreds of MB can be
 * cancelled
 * ---------------------------------------------------------------------
 */

/* Bytes encoded (and decoded) between two interrupt checks: 3 MB */
#define BF_B64_CHUNK	((Size) 3 << 20)

/* Length of the base64 encoding of len bytes */
static Size
BfBase64EncodedLen(Size len)
{
	return ((len + 2) / 3) * 4;
}

/* Encode len bytes into dst (BfBase64EncodedLen(len) bytes); returns length */
static Size
BfBase64Encode(const char *src, Size len, char *dst)
{
	Size		in = 0,
				out = 0;

	while (in < len)
	{
		Size		n = Min(len - in, BF_B64_CHUNK);
		int			r = pg_b64_encode((const BfB64Byte *) (src + in), (int) n,
									  dst + out, (int) BfBase64EncodedLen(n));

		if (r < 0)
			elog(ERROR, "could not encode %zu bytes as base64", n);
		in += n;
		out += r;
		CHECK_FOR_INTERRUPTS();
	}
	return out;
}

/*
 * Decode srclen base64 characters into exactly dstlen bytes at dst.  Returns
 * false unless they are the one encoding output writes: '=' only as the
 * padding, and no bits set beyond the data in the last group (which
 * pg_b64_decode lets pass).
 */
static bool
BfBase64Decode(const char *src, Size srclen, char *dst, Size dstlen)
{
	Size		pad = (3 - dstlen % 3) % 3;
	Size		in = 0,
				out = 0;
	char		last[4];

	if (srclen != BfBase64EncodedLen(dstlen))
		return false;
	if (dstlen == 0)
		return true;
	if (memchr(src, '=', srclen - pad) != NULL)
		return false;
	while (in < srclen)
	{
		Size		n = Min(srclen - in, BfBase64EncodedLen(BF_B64_CHUNK));
		Size		expect = Min(dstlen - out, BF_B64_CHUNK);

		if (pg_b64_decode(src + in, (int) n, (BfB64Byte *) (dst + out), (int) expect) != (int) expect)
			return false;
		in += n;
		out += expect;
		CHECK_FOR_INTERRUPTS();
	}
	/* the last group again, as output writes it */
	if (pg_b64_encode((const BfB64Byte *) (dst + dstlen - (3 - pad)), (int) (3 - pad), last, 4) != 4)
		return false;
	return memcmp(last, src + srclen - 4, 4) == 0;
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

/* Append " data=<base64 of the payload>" */
void
BfTextPayload(StringInfo buf, const void *data, Size len)
{
	Size		enclen = BfBase64EncodedLen(len);

	appendStringInfoString(buf, " " BF_TEXT_PAYLOAD "=");
	enlargeStringInfo(buf, enclen + 1);
	buf->len += BfBase64Encode((const char *) data, len, buf->data + buf->len);
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
 * type name, version, hash algorithm, seed and insert counter.  Fields are
 * copied, except the payload (key BF_TEXT_PAYLOAD), which is read where it
 * is: a copy would double the memory of a large filter's input.
 */
void
BfTextParse(const char *typname, const char *str, BfTextFields *f)
{
	const char *p = str;
	int			ntok = 0;

	memset(f, 0, sizeof(*f));
	f->typname = typname;

	for (;;)
	{
		const char *start;
		size_t		len;
		char	   *tok;

		p += strspn(p, BF_TEXT_SPACE);
		if (*p == '\0')
			break;
		start = p;
		len = strcspn(p, BF_TEXT_SPACE);
		p += len;
		if (ntok >= 2 && len > strlen(BF_TEXT_PAYLOAD) &&
			strncmp(start, BF_TEXT_PAYLOAD "=", strlen(BF_TEXT_PAYLOAD) + 1) == 0)
		{
			if (BfTextFind(f, BF_TEXT_PAYLOAD) >= 0)
				BfTextError(f, "Key \"%s\" appears more than once.", BF_TEXT_PAYLOAD);
			if (f->nfields >= BF_TEXT_MAX_FIELDS)
				BfTextError(f, "Too many fields, at \"%s\".", BF_TEXT_PAYLOAD);
			f->keys[f->nfields] = BF_TEXT_PAYLOAD;
			f->values[f->nfields] = NULL;
			f->payload = start + strlen(BF_TEXT_PAYLOAD) + 1;
			f->payloadlen = len - strlen(BF_TEXT_PAYLOAD) - 1;
			f->nfields++;
			ntok++;
			continue;
		}
		tok = pnstrdup(start, len);
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

/* Malformed-payload error: not the base64 of exactly len bytes */
static void
BfTextPayloadError(BfTextFields *f, Size len)
{
	char		msg[32];

	snprintf(msg, sizeof(msg), "%zu", len);
	BfTextError(f, "The data field is not valid base64 of exactly %s bytes.", msg);
}

/*
 * Check that the payload field has the length of the base64 of len bytes,
 * before the caller allocates them
 */
void
BfTextCheckPayload(BfTextFields *f, Size len)
{
	int			i = BfTextFind(f, BF_TEXT_PAYLOAD);

	if (i < 0)
		BfTextError(f, "Key \"%s\" is missing.", BF_TEXT_PAYLOAD);
	f->used[i] = true;
	if (f->payloadlen != BfBase64EncodedLen(len))
		BfTextPayloadError(f, len);
}

/* Decode the payload, checked by BfTextCheckPayload, into len bytes at dst */
void
BfTextGetPayload(BfTextFields *f, char *dst, Size len)
{
	Assert(f->payload != NULL);
	if (!BfBase64Decode(f->payload, f->payloadlen, dst, len))
		BfTextPayloadError(f, len);
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
