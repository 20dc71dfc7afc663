// Uploads an image to POST /rest/media/asset with the session's token, reporting progress
// (XMLHttpRequest: fetch reports no upload progress). The answer is the asset as the API gives it.
import type { ShopClient } from '../../packages/client/src/index.ts';

export interface UploadedAsset {
  id: number;
  url: string;
  width: number;
  height: number;
  alt: string;
}

export function mediaUploader(client: ShopClient) {
  return {
    uploadMedia(file: File, onProgress: (fraction: number) => void): Promise<UploadedAsset> {
      return new Promise((resolve, reject) => {
        const request = new XMLHttpRequest();
        request.open('POST', '/rest/media/asset');
        const token = client.session.accessToken;
        if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
        request.upload.onprogress = (event) => {
          if (event.lengthComputable) onProgress(event.loaded / event.total);
        };
        request.onload = () => {
          const answer = JSON.parse(request.responseText || '{}');
          if (request.status === 201) resolve(answer.data as UploadedAsset);
          else reject(new Error(answer.error?.message ?? `upload failed (${request.status})`));
        };
        request.onerror = () => reject(new Error('upload failed: no answer'));
        const form = new FormData();
        form.append('file', file, file.name);
        request.send(form);
      });
    },
  };
}
