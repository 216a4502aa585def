from PIL import Image, ImageDraw, ImageFilter
img = Image.new('RGB', (64, 48), 'white')
d = ImageDraw.Draw(img)
d.rectangle([10, 10, 30, 30], fill=(255, 0, 0))
d.line([0, 0, 63, 47], fill=(0, 0, 255), width=2)
img.filter(ImageFilter.GaussianBlur(1)).save('pic.png')
img.save('pic.jpg', quality=80)
back = Image.open('pic.png')
assert back.size == (64, 48) and back.mode == 'RGB'
assert Image.open('pic.jpg').format == 'JPEG'
assert img.getpixel((20, 20)) == (255, 0, 0)
print('OK')
