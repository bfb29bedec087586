import type { Multipart } from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { httpUrl } from '../dashboard.ts';
import { type PhotoUpload, PlatformApiError, UPLOADED_PHOTO_SIZES, type UploadedPhoto } from '../platform-client.ts';
import { requireSession } from '../session-cookie.ts';
import { formTokenMatches, type Session } from '../sessions.ts';

interface UploadForm {
  formToken: unknown;
  photoName: string | undefined;
  photo: PhotoUpload | undefined;
}

/**
 * The upload form posts the photo to the app itself; the app forwards it to the platform's
 * `photo.addPhoto` with the session's token and shows the seven sizes it answers with.
 */
export async function photoRoutes(app: FastifyInstance): Promise<void> {
  app.post('/photos', async (request, reply) => {
    const session = requireSession(request);
    const render = (status: number, view: { error?: string; uploaded?: UploadedPhoto }) =>
      renderUploadPage(reply, session, app.sample.config.MAX_UPLOAD_MB, status, view);

    let form: UploadForm;
    try {
      form = await readUploadForm(request.parts());
    } catch (error) {
      const status = (error as FastifyError).statusCode;
      if (typeof status !== 'number' || status >= 500) throw error;
      return render(status === 406 ? 415 : status, { error: describeMultipartError(error as FastifyError) });
    }
    if (!formTokenMatches(session, form.formToken)) {
      return render(403, { error: 'The form has expired. Reload the app and try again.' });
    }
    if (!form.photo) return render(400, { error: 'Choose a photo to upload.' });
    if (form.photoName !== undefined) form.photo.fileName = form.photoName;

    try {
      const uploaded = await app.sample.platform.addPhoto(session.token, form.photo);
      return render(201, { uploaded });
    } catch (error) {
      if (!(error instanceof PlatformApiError) || error.isAuthFailure) throw error;
      const status = error.status >= 400 && error.status < 500 ? error.status : 502;
      return render(status, { error: `The platform refused the photo: ${error.message} (${error.code})` });
    }
  });
}

async function readUploadForm(parts: AsyncIterableIterator<Multipart>): Promise<UploadForm> {
  const form: UploadForm = { formToken: undefined, photoName: undefined, photo: undefined };
  for await (const part of parts) {
    if (part.type === 'file') {
      // toBuffer() throws a 413 error once the file passes the size limit.
      const data = await part.toBuffer();
      if (part.fieldname === 'photo' && data.length > 0) {
        form.photo = { data, mimeType: part.mimetype, fileName: baseName(part.filename) };
      }
      continue;
    }
    if (part.fieldname === 'form_token') form.formToken = part.value;
    if (part.fieldname === 'photo_name' && typeof part.value === 'string' && part.value.trim() !== '') {
      form.photoName = baseName(part.value.trim());
    }
  }
  return form;
}

/** The platform wants a base file name; never pass on a client's path. */
function baseName(name: string): string {
  return name.split(/[\\/]/).pop()?.slice(0, 200) || 'photo';
}

function describeMultipartError(error: FastifyError): string {
  if (error.statusCode === 413) return 'The photo is too large.';
  if (error.statusCode === 406) return 'The upload must be sent as a form with a file (multipart/form-data).';
  return error.message;
}

function renderUploadPage(
  reply: FastifyReply,
  session: Session,
  maxUploadMb: number,
  status: number,
  view: { error?: string; uploaded?: UploadedPhoto },
) {
  const sizes = view.uploaded
    ? UPLOADED_PHOTO_SIZES.map((size) => ({ size, url: httpUrl(view.uploaded?.[size]) }))
    : undefined;
  reply.header('Cache-Control', 'no-store');
  return reply.status(status).view('upload.eta', {
    title: view.uploaded ? 'Photo uploaded' : 'Upload a photo',
    error: view.error,
    sizes,
    formToken: session.formToken,
    maxUploadMb,
  });
}
